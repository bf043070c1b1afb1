"""Shared by the tests that run `dormouse train` in a subprocess and read what it wrote:
the subprocess's environment, the command, running it (or killing it where it pauses), and `log.csv`."""
import csv, os, signal, subprocess, sys, time
from pathlib import Path
from dormouse.checkpoint import sha256_file

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, str(ROOT / "tests" / "dormouse_cli.py")]   # `dormouse`, from this checkout, pausable
DEVICE = os.environ.get("DORMOUSE_TEST_DEVICE", "cpu")   # e.g. `cuda` on the GPU machine


def env(**kw):
    "A training subprocess's environment: this checkout's package, one OpenMP thread, plus `kw`."
    # one thread: identical kernels in every run; passive waiting: numba's and torch's OpenMP teams
    # otherwise spin against each other on a small shared CPU
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))   # carried packages stay visible
    e = dict(os.environ, OMP_NUM_THREADS="1", OMP_WAIT_POLICY="passive", PYTHONUNBUFFERED="1", PYTHONPATH=path)
    e.pop("DORMOUSE_TEST_PAUSE", None)        # a pause is asked for by the one run that wants it
    e.update(kw)
    return e


def train_cmd(out, sets, preset="tiny"):
    "`dormouse train` of `preset` into `out`, one `--set` for each of `sets`."
    return [*CLI, "train", "--preset", preset, "--out", str(out),
            *[a for s in sets for a in ("--set", s)]]


def run(args, check=True, **kw):
    "Run `args` in the repository root with `env(**kw)`; with `check`, a non-zero exit fails showing the output."
    r = subprocess.run(args, cwd=ROOT, env=env(**kw), capture_output=True, text=True, timeout=600)
    if check: assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return r


def kill_paused(args, pause, timeout=600):
    """Start `args` (a `CLI` command) with `DORMOUSE_TEST_PAUSE=pause` (`step:N` or `save:N`), wait until
    it says it paused there, SIGKILL it; its output so far."""
    p = subprocess.Popen(args, cwd=ROOT, env=env(DORMOUSE_TEST_PAUSE=pause), stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    want, seen, t0 = "PAUSED " + pause.replace(":", " "), [], time.time()
    for line in p.stdout:
        seen.append(line)
        if line.strip() == want: break
        assert time.time() - t0 < timeout, "".join(seen[-30:])
    else:
        p.wait(); raise AssertionError(f"process ended before pausing at {pause}: {''.join(seen[-30:])}")
    assert p.poll() is None, "".join(seen[-30:])
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    assert p.returncode == -signal.SIGKILL
    return "".join(seen)


def log(out):
    "The rows of a run's `log.csv`, values as written (floats by `repr`: equal strings are equal bits)."
    with open(Path(out) / "log.csv", newline="") as f: return list(csv.DictReader(f))


def losses(out):
    "`(step, loss)` of every logged step, as strings: an exact comparison."
    return [(r["step"], r["loss"]) for r in log(out)]


def digest(p):
    "A file's sha256, hex, by the library's own `dormouse.checkpoint.sha256_file`."
    return sha256_file(Path(p))
