"""The memory cap and the card's MoE path, as far as a CPU can check them: a cap on a CPU run is one line
and exit status 1 with nothing written, while a spec for the GPU still loads; an out-of-memory stop words the
allocator's figures in one line; `model.moe_path` reaches the model; `dormouse bench card --moe-paths` parses,
refuses a bad list in one line, and the loop path trains two steps."""
import contextlib, io, types
import pytest
import torch
import dormouse.run_loop as tr
from dormouse.bench_card import MOE_PATHS, moe_paths
from dormouse.cli import main, make_parser
from dormouse.config import make_config
from dormouse.model import build_model


def one_line_exit(argv) -> str:
    "Run `dormouse argv` in this process: it must exit with one line (status 1); that line."
    err = io.StringIO()
    with pytest.raises(SystemExit) as e, contextlib.redirect_stderr(err): main(argv)
    msg = e.value.code
    assert isinstance(msg, str) and "\n" not in msg and "Traceback" not in err.getvalue(), (msg, err.getvalue())
    return msg


@pytest.mark.parametrize("device", ["cpu", "auto"])
def test_cap_refused_on_cpu(tmp_path, device):
    if device == "auto" and torch.cuda.is_available(): pytest.skip("auto resolves to CUDA here")
    out = tmp_path / "run"
    msg = one_line_exit(["train", "--preset", "tiny", "--out", str(out), "--set", "train.memory_cap_gib=15",
                         "--set", f"train.device={device}", "--set", "train.progress=false"])
    assert msg.startswith("dormouse train: train.memory_cap_gib=15 caps the CUDA allocator"), msg
    assert f"(train.device={device}" in msg and "leave the cap out on a CPU" in msg, msg
    assert not out.exists()                                   # nothing written
    assert not list(tmp_path.iterdir())


def test_cap_loads_for_a_gpu_spec():
    cfg = make_config("dormouse-1b-16g", sets=["train.device=cuda", "train.memory_cap_gib=15.25"])
    assert (cfg.train.memory_cap_gib, cfg.train.device) == (15.25, "cuda")
    assert tr.memory_cap(0, torch.device("cpu")) is None      # no cap: nothing to do on any device
    msg = one_line_exit(["train", "--preset", "tiny", "--out", "never", "--set", "train.memory_cap_gib=-1"])
    assert "'train.memory_cap_gib': -1.0; must be a finite number of GiB >= 0" in msg, msg


FIG = dict(allocated_gib=14.81, reserved_gib=15.02, peak_allocated_gib=14.94, peak_reserved_gib=15.06,
           memory_cap_gib=15.2, memory_cap_fraction=15.2 / 139.8, device_total_gib=139.8, cuda_context_gib=0.53)
FIGURES = ("the allocator had 14.81 GiB allocated (peak 14.94) and 15.02 GiB reserved (peak 15.06) under a cap of 15.20 GiB "
           "(fraction 0.1087 of 139.80 GiB); outside the allocator (CUDA context, kernels, libraries) 0.53 GiB")


def test_format_allocator():
    assert tr.format_allocator(FIG) == FIGURES
    uncapped = {k: v for k, v in FIG.items() if not k.startswith("memory_cap")}
    assert "of 139.80 GiB, no cap; outside the allocator" in tr.format_allocator(uncapped)


def test_out_of_memory_message(monkeypatch, tmp_path):
    "A synthetic CUDA out-of-memory error of a capped run becomes one line with the allocator's figures."
    cfg = make_config("dormouse-1b-16g", sets=["train.device=cuda", "train.memory_cap_gib=15.2"])
    monkeypatch.setattr(tr, "allocator_now", lambda peaks, cap, device: FIG)
    run = types.SimpleNamespace(batch_size=32, accum=2, seq_len=512, cfg=cfg, train_cfg=cfg.train, where="step 7",
                                device=torch.device("cuda"), peaks={p: (0, 0) for p in tr.PHASES}, memcap=None,
                                model=types.SimpleNamespace(engram=None),
                                last_kept=lambda: str(tmp_path / "ckpt" / "step_000006"))
    err = torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 139.80 GiB\n"
                                 "of which 120.1 GiB is free.   Of the allocated memory 14.81 GiB is allocated by PyTorch")
    msg = tr._Run.out_of_memory(run, err)
    assert "\n" not in msg, msg
    for part in ("out of cuda memory at step 7 (preset dormouse-1b-16g, micro-batch 32 × 512 bytes, 2 per optimizer step; " + FIGURES + ")",
                 f"the last checkpoint is {tmp_path / 'ckpt' / 'step_000006'}", "offload.loop=both offload.moe=both",
                 "Torch: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 139.80 GiB of which 120.1 GiB is free. Of"):
        assert part in msg, (part, msg)
    assert "optim.bank_" not in msg                        # the card's bank levers are taken already


def test_moe_path_reaches_the_model():
    for path, want in (("auto", None), ("loop", "loop"), ("grouped", "grouped")):
        assert build_model(make_config("tiny", sets=[f"model.moe_path={path}"])).loop.moe.path == want
    msg = one_line_exit(["train", "--preset", "tiny", "--out", "never", "--set", "model.moe_path=fused"])
    assert "bad value for 'model.moe_path': 'fused'; allowed: auto, grouped, loop" in msg, msg


def test_moe_paths_flag(tmp_path):
    a = make_parser().parse_args(["bench", "card", "--out", str(tmp_path / "b"), "--preset", "dormouse-1b-16g", "--moe-paths", "grouped,loop"])
    assert (a.moe_paths, a.preset, a.batch, a.accum) == ("grouped,loop", "dormouse-1b-16g", None, None)
    assert make_parser().parse_args(["bench", "card", "--out", "x"]).moe_paths is None      # the levers, as before
    msg = one_line_exit(["bench", "card", "--out", str(tmp_path / "bad"), "--moe-paths", "fused,loop"])
    assert msg == ("dormouse bench card: --moe-paths 'fused,loop': a comma-separated list of distinct paths out of "
                   + ", ".join(MOE_PATHS)), msg
    assert not (tmp_path / "bad").exists()


def test_loop_path_trains_on_cpu(tmp_path):
    "The card's path, two steps of `tiny` on the CPU: through the bench and through `dormouse bench card --moe-paths loop`."
    r, = moe_paths("tiny", ("loop",), "cpu", seq=32, warmup=0, steps=2)
    assert (r["path"], r["kernel"], len(r["ms_steps"]), r["peak_alloc_gib"]) == ("loop", "an mm per expert (ours)", 2, None)
    with contextlib.redirect_stdout(io.StringIO()):
        main(["bench", "card", "--out", str(tmp_path), "--preset", "tiny", "--seq", "32", "--batch", "2", "--accum", "2",
              "--warmup", "0", "--steps", "2", "--moe-paths", "loop"])
    assert (tmp_path / "moe_paths.csv").read_text().splitlines()[1].startswith("tiny,loop,an mm per expert (ours),2,2,32,")
