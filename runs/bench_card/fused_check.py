"""BankMuon's eager path against its fused (torch.compile) path on dormouse-1b's expert banks, on CUDA.
For each bank lever, both paths take the same steps from the same weights and gradients; printed: ms
per step (CUDA events, after one untimed step that compiles), the largest |difference| of the fp32
master and of the momentum (fused - eager), and whether the fused split bank's master equals the fused
fp32 bank's bit for bit (the gradients are bf16 values, as a split bank's are).
Run from the repository root on the GPU machine: python3 runs/bench_card/fused_check.py [--steps N]"""
import argparse, time
import torch
from dormouse.bits import dequantise_int8, join_fp32, split_fp32
from dormouse.config import make_config
from dormouse.model import ByteLM
from dormouse.optim import BankMuon, split_params

LEVERS = {"fp32 bank, fp32 momentum": ("fp32", "fp32"), "split bank, fp32 momentum": ("split", "fp32"),
          "split bank, int8 momentum": ("split", "int8")}


def bank_shapes(preset: str) -> list:
    "The shapes of the preset's expert banks, read from its model (built on the meta device: no memory)."
    with torch.device("meta"): model = ByteLM(make_config(preset))
    return [tuple(p.shape) for _, p in split_params(model)["bank"]]


def make_opt(masters, dtype, state, fused, lr):
    "Parameters, low bits and a BankMuon over copies of `masters` (fp32, or split into bf16 + low bits)."
    if dtype == "fp32": ps, lows = [torch.nn.Parameter(m.clone()) for m in masters], None
    else:
        pairs = [split_fp32(m) for m in masters]
        ps, lows = [torch.nn.Parameter(h) for h, _ in pairs], [lo for _, lo in pairs]
    return ps, lows, BankMuon(ps, lr=lr, weight_decay=0.1, momentum=0.95, state=state, lows=lows, fused=fused)


def run(ps, opt, grads, steps):
    "`steps` + 1 steps cycling through `grads`; (ms of the first step, mean ms of the rest)."
    def step(k):
        for p, g in zip(ps, grads[k % len(grads)]): p.grad = g
        opt.step()
    torch.cuda.synchronize(); t0 = time.perf_counter(); step(0); torch.cuda.synchronize()
    first = (time.perf_counter() - t0) * 1e3
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record()
    for k in range(1, steps + 1): step(k)
    b.record(); torch.cuda.synchronize()
    return first, a.elapsed_time(b) / steps


def masters_of(ps, lows): return [join_fp32(p.detach(), lo) if lows else p.detach().clone() for p, lo in zip(ps, lows or [None] * len(ps))]


def momenta(opt, ps):
    st = [opt.state[p] for p in ps]
    return [s["momentum_buffer"].clone() if "momentum_buffer" in s else dequantise_int8(s["momentum_q"], s["momentum_scale"], p.shape)
            for s, p in zip(st, ps)]


def main(preset="dormouse-1b", steps=5, seed=0):
    shapes, lr = bank_shapes(preset), make_config(preset).optim.muon_lr
    gen = torch.Generator("cuda").manual_seed(seed)
    masters = [torch.randn(s, device="cuda", generator=gen) * 0.02 for s in shapes]
    grads = [[torch.randn(s, device="cuda", generator=gen).bfloat16() for s in shapes] for _ in range(2)]
    print(f"{preset}: banks {shapes}, lr {lr}, {steps} timed steps; torch {torch.__version__}, {torch.cuda.get_device_name()}")
    rows, fused_fp32 = [], None
    for name, (dtype, state) in LEVERS.items():
        gs = grads if dtype == "split" else [[g.float() for g in gg] for gg in grads]
        res = {}
        for fused in (False, True):
            ps, lows, opt = make_opt(masters, dtype, state, fused, lr)
            first, ms = run(ps, opt, gs, steps)
            res[fused] = (first, ms, masters_of(ps, lows), momenta(opt, ps))
            del ps, lows, opt; torch.cuda.empty_cache()
        (_, ms_e, w_e, m_e), (first_f, ms_f, w_f, m_f) = res[False], res[True]
        dw = max((a - b).abs().max().item() for a, b in zip(w_f, w_e))
        dm = max((a - b).abs().max().item() for a, b in zip(m_f, m_e))
        if dtype == "fp32" and state == "fp32": fused_fp32 = w_f
        same = (all(torch.equal(a.view(torch.int32), b.view(torch.int32)) for a, b in zip(w_f, fused_fp32))
                if dtype == "split" and state == "fp32" and fused_fp32 is not None else None)
        rows.append((name, ms_e, ms_f, first_f, dw, dm, same))
        del res, gs; torch.cuda.empty_cache()
    base = rows[0][2]
    print(f"\n| lever | eager ms/step | fused ms/step | eager/fused | fused / fused fp32 | fused first step ms | "
          f"max abs diff master (x lr) | max abs diff momentum | fused split == fused fp32 |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, ms_e, ms_f, first_f, dw, dm, same in rows:
        print(f"| {name} | {ms_e:.1f} | {ms_f:.1f} | {ms_e / ms_f:.2f} | {ms_f / base:.2f} | {first_f:.0f} | "
              f"{dw:.2e} ({dw / lr:.2e}) | {dm:.2e} | {'' if same is None else same} |")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="dormouse-1b"); ap.add_argument("--steps", type=int, default=5)
    a = ap.parse_args()
    main(a.preset, a.steps)
