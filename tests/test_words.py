"""The repository speaks in its own words: no chapter, spec, record, tool or README names the circumstances of the work
that made it (periods of work, invocations of the machine-lending service, its time allowances, tracker or
decision-record numbers) or a document the repository does not hold (the GPU scripts that tools/gpu_run.sh replaced).
A reader can use neither: a record says when (its date), on what code (its commit) and how (its command). The
patterns below bracket one letter each, so that they match those words everywhere but in this file. Every text
file git knows of (or would add) is read, notebooks included; the exemptions below say why each is one. Run alone: `python -m pytest -q tests/test_words.py` prints every hit as FILE:LINE: TEXT."""
import re, subprocess
from pathlib import Path
from helpers import ROOT

WORDS = [r"\bse[s]sions?\b", r"\blea[s](e|es|ed)\b", r"\ble[n]t\b", r"devic[e] tool", r"budge[t]_left", r"\bcal[l]s? #?\d",
         r"\bcal[l]s? of\b", r"\bAD[R]-\d", r"\bissu[e]s? #?\d", r"\bgpu_[s]\d", r"devic[e]_scripts", r"\bgpu_a[b](_fit)?\.sh",
         r"\bgpu_setu[p]\.sh", r"\bCALL_T[0]\b"]
# the lookahead: every word starts with one of these letters, so the engine tries the alternatives only there (5x faster)
assert all(re.sub(r"^\\b", "", w)[0].lower() in "sldbcaig" for w in WORDS), "a word starts with a letter the lookahead lacks"
PATTERN = re.compile(r"(?=[sldbcaig])(?:" + "|".join(WORDS) + ")", re.I)

# Text that may hold a word, and why.
ALLOWED_TEXT = [
    (r'scope="session"', "pytest's fixture scope, an API name"),
    (r"\bcal[l]s? of `", "a named function's invocation"),
    (r"the first cal[l] of a run", "a function's first invocation within a run (bench_engram's untimed warm-up)"),
]
ALLOWED_TEXT_RE = re.compile("|".join(p for p, _ in ALLOWED_TEXT), re.I)

# Files that may hold a word, and why. Records are never edited after their run.
ALLOWED_FILES = {
    "runs/bench_prefetch/2026-11-30-a-both-6x8/bench.json": "the record as rebuilt from its run.log then; its README "
                                                            "says the same in today's words",
}
BINARY = {".gz", ".png", ".jpg", ".jpeg", ".gif", ".ico", ".pdf", ".whl", ".deb", ".u8", ".pt", ".npy", ".npz", ".woff", ".woff2"}
BASE64_LINE = re.compile(r'^\s*"[A-Za-z0-9+/=]{60,}(\\n)?",?\s*$')   # an image's data inside a notebook


def text_files():
    out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    for name in sorted(set(filter(None, out.split("\0")))):
        p = ROOT / name
        if Path(name).suffix.lower() in BINARY or not p.is_file(): continue
        data = p.read_bytes()
        if b"\0" in data[:8192]: continue
        yield name, data.decode("utf-8", errors="replace")


def hits():
    for name, text in text_files():
        if name in ALLOWED_FILES or not PATTERN.search(text): continue    # most files: one search, no line loop
        for i, line in enumerate(text.splitlines(), 1):
            if BASE64_LINE.match(line): continue
            rest = ALLOWED_TEXT_RE.sub(" ", line)
            if PATTERN.search(rest): yield f"{name}:{i}: {line.strip()[:200]}"


def test_no_workplace_words():
    found = list(hits())
    assert not found, f"{len(found)} lines speak of the workplace, not the project:\n" + "\n".join(found)


def test_exemptions_still_needed():
    "An exempted file that no longer holds a word, or an allowed phrase nothing uses, is taken off the lists."
    texts = dict(text_files())
    for name in ALLOWED_FILES:
        if name == "tests/test_words.py": continue
        assert name in texts and PATTERN.search(texts[name]), f"{name} is exempted but holds no word: take it off"
    everything = "\n".join(t for n, t in texts.items() if n != "tests/test_words.py")
    for p, why in ALLOWED_TEXT:
        if p.startswith(r"\bgit show"): continue      # kept for citations of earlier commits, used or not
        assert re.search(p, everything, re.I), f"{p!r} ({why}) matches nothing any more: take it off"


def test_cited_files_exist():
    "Each `git show COMMIT:PATH` a text cites (the scripts records were made with) names a file that commit holds."
    import pytest
    shallow = subprocess.run(["git", "rev-parse", "--is-shallow-repository"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    if shallow == "true": pytest.skip("a shallow clone lacks the commits cited")
    cited = {m for _, t in text_files() for m in re.findall(r"\bgit show ([0-9a-f]{7,40}:[^\s`)'\"]+)", t)}
    missing = [c for c in sorted(cited) if subprocess.run(["git", "cat-file", "-e", c], cwd=ROOT).returncode != 0]
    assert cited and not missing, f"cited but not in the history: {missing}"
