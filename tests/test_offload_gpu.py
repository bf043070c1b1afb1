"""dormouse.offload on a GPU: the `#| gpu` cells of nbs/06_offload.ipynb as plain pytest, for the GPU
machine (no nbdev there): `python3 -m pytest -q tests/test_offload_gpu.py`. Skipped without CUDA."""
import pytest, torch, torch.nn as nn, torch.nn.functional as F
from dormouse.config import make_config
from dormouse import offload
from dormouse.offload import Offloader, run_block, MODES, PATHS

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
DEV = "cuda"


class Toy(nn.Module):
    "Norm, two linears, SwiGLU-style chunk (two views of one storage)."
    def __init__(self, d=32):
        super().__init__()
        self.norm, self.up, self.down = nn.RMSNorm(d), nn.Linear(d, 4 * d), nn.Linear(2 * d, d)
    def forward(self, x):
        g, u = self.up(self.norm(x)).chunk(2, dim=-1)
        return self.down(F.silu(g) * u)


def same(a, b): return len(a) == len(b) and all(torch.equal(u, v) for u, v in zip(a, b))


@pytest.fixture(scope="module")
def stack():
    torch.manual_seed(0)
    return nn.ModuleList([Toy() for _ in range(4)]).to(DEV)


def stack_grads(stack, mode="none", off=None, wrap=lambda b: b, seed=0, autocast=False):
    "Gradients (input + parameters) of the toy stack, every block through `run_block`."
    torch.manual_seed(seed)
    x = torch.randn(8, 256, 32, device=DEV, requires_grad=True)
    with torch.autocast("cuda", dtype=torch.bfloat16, enabled=autocast):
        h = x
        for b in stack: h = h + run_block(wrap(b), h, mode=mode, offloader=off)
        loss = h.float().square().mean()
    return torch.autograd.grad(loss, [x, *stack.parameters()])


def test_device_and_dtype_restored():
    off = Offloader(path="pinned", min_bytes=0)
    t = torch.randn(256, 256, device=DEV, dtype=torch.bfloat16)[:, :128]
    p = off.pack(t); torch.cuda.synchronize()
    assert p.copy.host.device.type == "cpu" and p.copy.host.is_pinned()
    for _ in range(2):   # unpack does not consume
        u = off.unpack(p); torch.cuda.synchronize()
        assert u.device == t.device and u.dtype == t.dtype and u.stride() == t.stride() and torch.equal(u, t)
        del u


@pytest.mark.parametrize("autocast", [False, True])
def test_grads_equal_every_mode_and_path(stack, autocast):
    ref = stack_grads(stack, autocast=autocast)
    for path in PATHS:
        for mode in MODES:
            off = Offloader(path=path, min_bytes=1024)
            assert same(stack_grads(stack, mode, off, autocast=autocast), ref), (path, mode)
            if mode in ("offload", "both"):
                assert off.counts["packed"] > 0 and off.counts["unpacked"] > 0, (path, mode, off.counts)
            if autocast and mode == "offload" and path != "save_on_cpu":
                assert off.counts["recast"] == 8   # two linears per block, four blocks: weights recast, not copied


def test_retain_graph_double_backward(stack):
    for path in ("sync", "pinned"):
        for mode in ("offload", "both"):
            grads = []
            for m, off in (("none", None), (mode, Offloader(path=path, min_bytes=1024))):
                torch.manual_seed(1); x = torch.randn(8, 256, 32, device=DEV, requires_grad=True)
                h = x
                for b in stack: h = h + run_block(b, h, mode=m, offloader=off)
                loss = h.float().square().mean()
                g1 = torch.autograd.grad(loss, x, retain_graph=True)[0]
                g2 = torch.autograd.grad(loss, x)[0]
                assert torch.equal(g1, g2)
                grads.append(g1)
            assert torch.equal(*grads), (path, mode)


def test_no_growth_over_steps(stack):
    for path in ("sync", "pinned"):
        off = Offloader(path=path, min_bytes=1024)
        alloc, reserved, pool = [], [], []
        for step in range(4):
            g = stack_grads(stack, "offload", off, seed=step); del g
            torch.cuda.synchronize()
            s = off.step_end()
            alloc.append(torch.cuda.memory_allocated()); reserved.append(torch.cuda.memory_reserved())
            pool.append(s["offload_pool_bytes"])
        assert alloc[1] == alloc[2] == alloc[3], (path, alloc)
        assert reserved[3] <= reserved[1], (path, reserved)
        assert pool[1] == pool[2] == pool[3], (path, pool)
        assert off.pool.n_free() == off.pool.n_buffers


def raced(stack, unsafe, seed=0):
    "Gradients with long sleeps before every producer (compute stream) and every copy (side stream)."
    off = Offloader(path="pinned", min_bytes=1024)
    off._before_copy = lambda: torch.cuda._sleep(2_000_000)
    off._unsafe_no_wait = unsafe
    def slow(b):
        def f(h):
            torch.cuda._sleep(20_000_000)   # the compute stream is still busy when pack enqueues its copy
            return b(h)
        return f
    return stack_grads(stack, "offload", off, wrap=slow, seed=seed)


def test_race_side_stream(stack):
    assert same(raced(stack, False), stack_grads(stack))
    # the test can fail: without the stream waits the copies read unfinished data
    # (a new seed each time, so stale memory from an earlier run cannot hold the right numbers)
    broken = [not same(raced(stack, True, seed=s), stack_grads(stack, seed=s)) for s in (1, 2, 3)]
    assert any(broken), broken


def model_run(cfg, loop, moe, path, device=DEV):
    torch.manual_seed(0)
    from dormouse.model import build_model
    m = build_model(cfg, device)
    with torch.no_grad():
        for p in m.parameters(): p.normal_(std=0.05)
    m.loop.attn_mode, m.loop.moe_mode = loop, moe
    off = offload.configure(cfg.offload, model=m, path=path, min_bytes=1024)
    x = torch.randint(0, 256, (4, 129), generator=torch.Generator().manual_seed(0)).to(device)
    torch.cuda.reset_peak_memory_stats()
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss, _ = m.loss(x[:, :-1], x[:, 1:])
    loss.backward()
    torch.cuda.synchronize()
    grads = [loss.detach()] + [p.grad for p in m.parameters()]
    return grads, dict(off.counts)


def test_model_every_mode_and_path():
    "The real model on the GPU (grouped expert kernel in bf16): close to no offload, and the bank is recast."
    cfg = make_config("tiny", sets=["model.d_model=128", "model.d_expert=128", "model.n_experts=8", "data.seq_len=128"])
    ref, _ = model_run(cfg, "none", "none", "pinned")
    for path in PATHS:
        for mode in ("checkpoint", "offload", "both"):
            g, c = model_run(cfg, mode, mode, path)
            for a, b in zip(g, ref): torch.testing.assert_close(a, b, rtol=2e-2, atol=1e-4)
            if mode != "checkpoint": assert c["packed"] > 0, (path, mode, c)
            if mode == "offload" and path != "save_on_cpu":
                assert c["recast"] >= 2 * cfg.model.n_loops, c   # w13 and w2 bf16 casts, every loop pass
    offload.configure(None)
