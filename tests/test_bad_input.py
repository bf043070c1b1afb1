"""Every bad input is one line and exit status 1, names the key or file and the fix, and writes or
changes nothing. Table-driven: (what a user types, what the one line must say). The `dormouse`
command runs in this process (`dormouse.cli.main`), except one case that checks, in a subprocess,
that no traceback reaches the terminal and that `--debug` shows it."""
import contextlib, io, shutil, subprocess, sys
from pathlib import Path
import pytest
from dormouse.cli import main
from dormouse.spec import EXAMPLE
from helpers import CLI, ROOT, env, run

TRAIN = ["train", "--set", "train.steps=2", "--set", "train.progress=false", "--set", "train.eval_bytes=4096"]


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    "A folder with the files the cases name: a finished run, configs, a small corpus, a plain file."
    d = tmp_path_factory.mktemp("bad")
    cache = d / "cache"
    (d / "bad.yaml").write_text("model: {d_model: [\n")
    (d / "list.yaml").write_text("- train\n- steps\n")
    (d / "small.txt").write_text("a few words of text, repeated. " * 64)          # 2 KB: a held-out part of 20 bytes
    (d / "plain.txt").write_text("not a run directory\n")
    (d / "one.txt").write_text("x")
    run([*CLI, *TRAIN, "--out", str(d / "run"), "--set", f"data.cache_dir={cache}"])
    man = d / "edited" / "ckpt" / "step_000002" / "manifest.json"
    import shutil; shutil.copytree(d / "run", d / "edited")
    man.write_text(man.read_text().replace('"bytes"', '"bytez"', 1))             # a one-letter edit of a key
    for name, text in (("empty", ""), ("garbage", "\x00\x7f not a step\n")):   # a `latest` pointer emptied or overwritten
        shutil.copytree(d / "run", d / name); (d / name / "ckpt" / "latest").write_text(text)
    spec = EXAMPLE.replace("data: {", f"data: {{cache_dir: {cache}, ")
    (d / "dup.yaml").write_text(spec.replace("  engram: {engram: {enabled: true}}", "  engram: {engram: {enabled: true}}\n  control: {}"))
    (d / "metric.yaml").write_text(spec.replace("metric: heldout_bpb", "metric: heldout_bpd"))
    (d / "gate.yaml").write_text(spec.replace("check: unique_rows > 0", "check: unique_row > 0"))
    (d / "broken.yaml").write_text(spec.replace("seeds: [0, 1]", "seeds: [0, 1"))
    return d, cache


def cases(d, cache):
    c = ["--set", f"data.cache_dir={cache}"]
    out = ["--out", str(d / "new")]
    ab = ["ab", "--runs-dir", str(d / "new"), "--engine", "python", "--no-progress"]
    t = [*TRAIN, *out, *c]
    return [  # (argv, what the line must say)
        ([*t, "--set", "engram.enabled=true", "--set", "engram.rows=2^40"], "Engram tables do not fit"),
        ([*t, "--set", "engram.enabled=true", "--set", "engram.mode=device", "--set", "engram.rows=2^40"], "Engram tables do not fit"),
        ([*t, "--set", "engram.ram_reserve_gb=-1000"], "'engram.ram_reserve_gb': -1000.0; must be a finite number of GB >= 0"),
        ([*t, "--config", str(d / "bad.yaml")], f"{d / 'bad.yaml'}: not valid YAML at line"),
        ([*t, "--config", str(d / "list.yaml")], "a config file is a mapping of sections"),
        ([*t, "--config", str(d / "missing.yaml")], "config file not found"),
        ([*t, "--set", "optim.adam_lr=nan"], "'optim.adam_lr': nan; must be a finite number > 0"),
        ([*t, "--set", "optim.adam_lr=-1"], "'optim.adam_lr': -1.0; must be a finite number > 0"),
        ([*t, "--set", "optim.muon_lr=nan"], "'optim.muon_lr': nan"),
        ([*TRAIN, *out, "--set", f"data.sources=[{d / 'small.txt'}]", *c], "held-out part has"),
        ([*TRAIN, *out, "--set", f"data.sources=[{d / 'nothing.txt'}]", *c], "nothing.txt"),
        ([*t, "--set", "train.log_every=0"], "'train.log_every': 0; must be an integer >= 1"),
        ([*t, "--set", "engram.orders=[a]"], "'engram.orders': ['a']; must be a list of whole numbers >= 1"),
        ([*t, "--set", "optim.adam_betas=[0.9]"], "'optim.adam_betas': [0.9]; must be two numbers in [0, 1)"),
        ([*t, "--set", "engram.rows=infM"], "bad value for 'engram.rows': 'infM'"),
        ([*t, "--set", "preset=bogus"], "a preset is chosen with --preset"),
        ([*t, "--preset", "huge"], "unknown preset 'huge'; allowed: tiny, small, dormouse-1b"),
        ([*t, "--set", "model.d_modle=3"], "unknown key 'model.d_modle'"),
        ([*t, "--set", "offload.moe=sometimes"], "allowed: none, checkpoint, offload, both"),
        ([*TRAIN, "--out", str(d / "plain.txt"), *c], "is a file, not a run directory"),
        ([*TRAIN, "--out", str(d / "edited"), "--set", "train.steps=4", *c], "manifest.json is corrupt: no size for"),
        (["mem", "--rows", "infM"], "bad --rows 'infM': not a finite number"),
        (["mem", "--rows", "0"], "rows per order must be >= 1"),
        (["mem", "--dim", "-32"], "--dim -32 and --orders 3 must be >= 1"),
        (["eval", "--ckpt", str(d / "run"), "--bytes", "-128"], "--bytes '-128': must be at least 1"),
        (["eval", "--ckpt", str(d / "run"), "--data", str(d / "missing.bin")], "--data"),
        (["eval", "--ckpt", str(d / "nowhere")], "no such checkpoint path"),
        (["eval", "--ckpt", str(d / "run"), "--data", str(d)], f"--data {d} is a directory: give one file"),
        (["eval", "--ckpt", str(d / "run"), "--data", "/dev/null"], "--data /dev/null is not a regular file"),
        (["eval", "--ckpt", str(d / "run"), "--data", str(d / "one.txt")], "one.txt: 1 byte, fewer than one window"),
        ([*TRAIN, "--out", str(d / "empty"), "--set", "train.steps=4", *c], "names '', which is not a checkpoint directory under"),
        ([*TRAIN, "--out", str(d / "garbage"), "--set", "train.steps=4", *c], "`dormouse train` with --resume-from step_000002"),
        (["eval", "--ckpt", str(d / "garbage")], "`dormouse eval` with --ckpt"),
        ([*ab, str(d / "dup.yaml")], "key 'control' appears twice (lines 7 and 9); YAML would keep the last silently"),
        ([*ab, str(d / "metric.yaml")], "'metric' 'heldout_bpd': no run records it in metrics.json or log.csv; did you mean 'heldout_bpb'?"),
        ([*ab, str(d / "gate.yaml")], "'gates[0].check' reads 'unique_row': no run records it"),
        ([*ab, str(d / "broken.yaml")], "broken.yaml: not valid YAML at line"),
    ]


def tree(d):
    return {str(p.relative_to(d)): p.stat().st_mtime_ns for p in sorted(Path(d).rglob("*")) if "cache" not in p.parts}   # a corpus cache may be built


def test_every_bad_input_is_one_line(work, capsys):
    d, cache = work
    table = []
    for argv, says in cases(d, cache):
        before = tree(d)
        with pytest.raises(SystemExit) as e, contextlib.redirect_stderr(io.StringIO()):
            main(argv)
        msg = str(e.value.code)
        table.append((" ".join(a.replace(str(d) + "/", "") for a in argv), msg.replace(str(d) + "/", "")))
        assert says in msg, (argv, msg)
        assert msg.startswith("dormouse ") and "\n" not in msg, msg
        assert tree(d) == before, (argv, "wrote or changed a file")
        assert not (d / "new").exists(), argv
    with capsys.disabled():
        print("\n| input | message |\n|---|---|")
        for a, m in table: print(f"| `dormouse {a}` | {m} |")


def test_no_traceback_unless_debug(work):
    d, cache = work
    argv = [*TRAIN, "--out", str(d / "new"), "--set", "optim.adam_lr=nan"]
    r = subprocess.run([*CLI, *argv], cwd=ROOT, env=env(), capture_output=True, text=True, timeout=300)
    assert r.returncode == 1 and r.stderr.strip().count("\n") == 0 and "Traceback" not in r.stderr, r.stderr
    r = subprocess.run([*CLI, "--debug", *argv], cwd=ROOT, env=env(), capture_output=True, text=True, timeout=300)
    assert r.returncode == 1 and "Traceback" in r.stderr and "ConfigError" in r.stderr
