"""The kit a GPU machine without internet needs beside the tree (README: "Running on a GPU machine without internet").

    python tools/gpu_kit.py [NAME...] [--python 3.12] [--platform P]... [--have PKG,...] [--limit-mib 64] [--dest DIR]
    python tools/gpu_kit.py --check {experiment SPEC | check | bench}     (on the GPU machine: tools/gpu_run.sh)

NAME: what the kit serves, an experiment (experiments/NAME.yaml, or a spec's path) or a preset (tiny, small, ...):
the corpora and Debian packages they read. Without NAME, everything: both Debian packages, no named corpus.

It writes, at the repository's root (or --dest):
  .whl/             the wheels the machine lacks: the package's dependencies and the tools (papermill, ipykernel,
                    nbdev, execnb, nbconvert, pinned in requirements.lock) with their whole closure, downloaded for
                    `--python` and `--platform` (default the GPU machine's: Python 3.12, manylinux x86_64), less the
                    packages the machine has (`--have`, default `GPU_HAS`): a wheel of one of those would shadow its
                    own build (its torch, its numba). `.whl/kit.txt` names the Python it was built for.
  .deb/             `apt-get download` of dict-gcide (the default corpus) and the spec's `ood` package (fortunes)
  .corpus/          `dormouse corpus --source S --pack .corpus` for each named source an arm reads
  .dormouse-commit  `git rev-parse HEAD`: the commit the records will name
then prints the tree's and the kit's size against `--limit-mib` (what one copy may carry) and exits 1 past it;
`bash tools/slim_tree.sh on NAME` takes the other records out of the tree. .whl/ is ignored by git (carry it);
.deb/, .corpus/ and .dormouse-commit are not, so a copy of the working tree takes them along.

`--check` (tools/gpu_run.sh runs it after installing .whl/) names every missing piece a run needs and exits 2.
"""
from __future__ import annotations
import argparse, importlib.util, json, os, re, shutil, subprocess, sys, tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ["papermill", "ipykernel", "nbdev", "execnb", "nbconvert"]   # what runs the experiments and the GPU cells
# what the GPU machine already has (its own builds: a wheel of one of these in .whl/ would shadow it)
GPU_HAS = ["torch", "numpy", "numba", "pandas", "pyyaml", "jinja2", "requests", "tqdm", "psutil", "packaging",
           "setuptools", "typing-extensions", "pygments", "attrs", "click", "python-dateutil", "tzdata", "six",
           "certifi", "idna", "urllib3", "charset-normalizer", "anyio", "h11"]
GPU_PYTHON = "3.12"
GPU_PLATFORMS = ["manylinux2014_x86_64", "manylinux_2_17_x86_64", "manylinux_2_28_x86_64", "any"]
DEFAULT_CORPUS = ("/usr/share/dictd/gcide.dict.dz", "dict-gcide")   # dormouse.data.DEFAULT_CORPUS and its package
LIMIT_MIB = 64
# the modules each mode of tools/gpu_run.sh imports, by distribution (all import as their own name)
NEEDS = {"experiment": ["fastcore", "papermill", "ipykernel", "nbconvert"], "check": ["fastcore", "nbdev", "execnb"],
         "bench": ["fastcore"]}


def canon(name: str) -> str: return re.sub(r"[-_.]+", "-", name).lower()

def wheel_name(f: str) -> str: return canon(Path(f).name.split("-")[0])

def mib(n: int) -> str: return f"{n / 2**20:.1f} MiB"


def pins() -> dict:
    "requirements.lock as {canonical name: 'name==version'}."
    out = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        if (line := line.split("#")[0].strip()) and "==" in line: out[canon(line.split("==")[0])] = line
    return out


def requested(have: set) -> list:
    "The package's dependencies and the tools, less what the machine has, pinned where requirements.lock pins them."
    import tomllib
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"] + TOOLS
    p = pins()
    reqs = {canon(re.split(r"[<>=!~ ]", d)[0]): d for d in deps}
    return [p.get(n, d) for n, d in reqs.items() if n not in have]


def needs(names: list) -> tuple[set, set]:
    "(Debian packages, (named source, max bytes) corpora) that the experiments or presets `names` read."
    sys.path.insert(0, str(ROOT))
    from dormouse.config import PRESETS, make_config
    from dormouse.spec import arm_config, load_spec
    debs, corpora = set(), set()
    def data(c):
        if c.data.source: corpora.add((c.data.source, c.data.max_bytes))
        elif not c.data.sources: debs.add(DEFAULT_CORPUS[1])
    for n in names:
        if n in PRESETS:
            data(make_config(n))
            continue
        path = Path(n) if n.endswith((".yaml", ".yml")) else ROOT / "experiments" / f"{n}.yaml"
        if not path.exists(): sys.exit(f"gpu_kit: {n} is neither a preset ({', '.join(PRESETS)}) nor a spec ({path})")
        s = load_spec(path)
        for a in s.arms: data(arm_config(s, a))
        if s.ood: debs.add(s.ood["package"])
    return debs, corpora


def fresh(d: Path, pattern: str) -> Path:
    "Folder `d`, emptied of a previous kit's `pattern` files."
    d.mkdir(exist_ok=True)
    for f in d.glob(pattern): f.unlink()
    return d


def wheels(dest: Path, python: str, platforms: list, have: set) -> list:
    "Download the closure into a scratch folder, keep what the machine lacks in `dest`: the kept file names."
    reqs = requested(have)
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "pip", "download", "-q", "--only-binary=:all:", "--python-version", python,
               *[a for p in platforms for a in ("--platform", p)], "-d", tmp, *reqs]
        print("$", " ".join(cmd[2:]), flush=True)
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode: sys.exit(f"gpu_kit: pip download failed:\n{r.stderr[-3000:]}")
        kept = sorted(f.name for f in Path(tmp).glob("*.whl") if wheel_name(f.name) not in have)
        for f in kept: shutil.move(Path(tmp) / f, dest / f)
    (dest / "kit.txt").write_text(f"python {python}\nplatforms {' '.join(platforms)}\n"
                                  f"left out {' '.join(sorted(have))}\nrequested {' '.join(reqs)}\n")
    return kept


KIT = (".whl/", ".deb/", ".corpus/", ".dormouse-commit")

def tree_bytes() -> int:
    "What a copy of the tree carries: tracked files present and untracked ones git does not ignore, less the kit."
    ls = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                        capture_output=True, check=True).stdout.decode().split("\0")
    kit = KIT
    return sum((ROOT / f).stat().st_size for f in set(ls) if f and not f.startswith(kit) and (ROOT / f).is_file())


def folder_bytes(p: Path) -> int:
    return p.stat().st_size if p.is_file() else sum(f.stat().st_size for f in p.rglob("*") if f.is_file())


def build(a) -> int:
    have = {canon(h) for h in a.have.split(",") if h}
    debs, corpora = needs(a.names) if a.names else ({DEFAULT_CORPUS[1], "fortunes"}, set())
    dest = Path(a.dest).resolve()
    dest.mkdir(parents=True, exist_ok=True)
    whl, deb, corpus, commit = dest / ".whl", dest / ".deb", dest / ".corpus", dest / ".dormouse-commit"
    kept = wheels(fresh(whl, "*.whl"), a.python, a.platform or GPU_PLATFORMS, have)
    fresh(deb, "*.deb")
    if debs:
        r = subprocess.run(["apt-get", "download", *sorted(debs)], cwd=deb, capture_output=True, text=True)
        if r.returncode: sys.exit(f"gpu_kit: apt-get download {' '.join(sorted(debs))} failed:\n{r.stderr[-2000:]}")
    fresh(corpus, "corpus-*")
    for src, cap in sorted(corpora):
        cmd = [sys.executable, str(ROOT / "tests/dormouse_cli.py"), "corpus", "--source", src,
               *(["--max-bytes", str(cap)] if cap else []), "--pack", str(corpus)]
        print("$", " ".join(cmd[1:]), flush=True)
        if subprocess.run(cmd, cwd=ROOT).returncode: sys.exit(f"gpu_kit: the {src} corpus did not pack")
    if not any(corpus.iterdir()): corpus.rmdir()
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    commit.write_text(head)
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True,
                           text=True).stdout.strip()
    kit = [p for p in (whl, deb, corpus, commit) if p.exists()]
    sizes = {p.name: folder_bytes(p) for p in kit}
    tree = tree_bytes()
    total = tree + sum(sizes.values())
    print(f"kit for {' '.join(a.names) or 'every experiment'} (Python {a.python}):")
    print(f"  .whl/   {len(kept)} wheels, {mib(sizes['.whl'])}: {' '.join(kept)}")
    print(f"  .deb/   {mib(sizes['.deb'])}: {' '.join(sorted(f.name for f in deb.glob('*.deb'))) or '(none needed)'}")
    named = " ".join(sorted(f"{s} ({c or 'its default cap'})" for s, c in corpora)) or "(none needed)"
    print(f"  .corpus/ {mib(sizes.get('.corpus', 0))}: {named}")
    print(f"  .dormouse-commit {head.strip()}{' (the tree has uncommitted changes: code_hash tells)' if dirty else ''}")
    print(f"size: tree {mib(tree)} + kit {mib(sum(sizes.values()))} = {mib(total)} of {a.limit_mib} MiB")
    if total > a.limit_mib * 2**20:
        keep = " ".join(n for n in a.names if not n.endswith((".yaml", ".yml"))) or "EXPERIMENT"
        print(f"gpu_kit: refused: {mib(total)} is past the {a.limit_mib} MiB one copy may carry; "
              f"`bash tools/slim_tree.sh on {keep}` takes the other records out of the tree (`off` brings them back)",
              file=sys.stderr)
        return 1
    return 0


def check(mode: str, spec: str | None) -> int:
    "On the GPU machine, after .whl/ is installed: every missing piece named, with where it comes from; 2 if any."
    missing = [f"{m} (not importable: its wheel belongs in .whl/)" for m in NEEDS[mode]
               if importlib.util.find_spec(m) is None]
    debs, corpora = needs([spec]) if spec else ({DEFAULT_CORPUS[1]}, set())
    files = {DEFAULT_CORPUS[1]: DEFAULT_CORPUS[0]}
    if spec:
        from dormouse.spec import load_spec
        s = load_spec(spec)
        if s.ood: files[s.ood["package"]] = s.ood["file"]
    for p in sorted(debs):
        if not (files.get(p) and Path(files[p]).exists()) and not list((ROOT / ".deb").glob(f"{p}_*.deb")):
            missing.append(f"{p} (Debian package: its .deb belongs in .deb/)")
    if corpora:
        from dormouse.data import NAMED_SOURCES
        import hashlib
        cache = Path(os.environ.get("DORMOUSE_CACHE", "/tmp/dormouse-cache")) / "corpus"
        for src, cap in sorted(corpora):
            n = NAMED_SOURCES[src]
            key = hashlib.sha256(f"{src}|{n['seed']}|{int(cap or n['max_bytes'])}".encode()).hexdigest()[:16]
            if not any((d / f"corpus-{key}.json").exists() for d in (ROOT / ".corpus", cache)):
                missing.append(f"the {src} corpus (corpus-{key}: `dormouse corpus --source {src} --pack .corpus`)")
    if not missing: return 0
    print("gpu_run: the kit lacks " + "; ".join(missing) + ". Build it where there is a network: "
          f"`make gpu-kit FOR='{Path(spec).stem if spec else ''}'` (tools/gpu_kit.py), then carry .whl/ with the tree",
          file=sys.stderr)
    return 2


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("names", nargs="*", help="experiments or presets the kit serves (default: every experiment)")
    p.add_argument("--python", default=GPU_PYTHON, help=f"the machine's Python, X.Y (default {GPU_PYTHON})")
    p.add_argument("--platform", action="append",
                   help=f"a wheel platform tag, repeatable (default {' '.join(GPU_PLATFORMS)})")
    p.add_argument("--have", default=",".join(GPU_HAS),
                   help="packages the machine has, comma-separated (default: the GPU machine's)")
    p.add_argument("--limit-mib", type=float, default=LIMIT_MIB, help=f"tree + kit at most (default {LIMIT_MIB})")
    p.add_argument("--dest", default=str(ROOT),
                   help="where the kit goes (default the repository's root, where it travels)")
    p.add_argument("--check", nargs="+", metavar="MODE", help="experiment SPEC | check | bench: what is missing here")
    a = p.parse_args(argv)
    if a.check:
        mode, spec = a.check[0], (a.check[1] if len(a.check) > 1 else None)
        if mode not in NEEDS: p.error(f"--check {mode}: one of {', '.join(NEEDS)}")
        return check(mode, spec)
    return build(a)


if __name__ == "__main__":
    sys.exit(main())
