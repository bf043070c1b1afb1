"""Train a byte-level mixture-of-experts LM on one GPU, with host RAM as capacity

Modules:

- `dormouse.ab`: `dormouse ab SPEC`: every arm × seed of an experiment spec through papermill, the executed notebooks as the record, and the report with the spec's decision at the end.
- `dormouse.bench_card`: `dormouse-1b` under a 15 GiB allocator cap: peak memory, step time, the largest micro-batch and the bytes over the bus, for each memory lever side by side with today's fp32 path.
- `dormouse.bench_memory`: One traced training step of `dormouse-1b` at micro-batch 1 and 8: the moment of peak allocated memory and what is live then, by category, from the CUDA allocator's own history.
- `dormouse.bench_ns`: Milliseconds per Newton–Schulz of `dormouse-1b`'s whole expert banks, chunked as `BankMuon` chunks them: the torch iteration and the symmetric Triton kernels side by side, and how far apart their answers lie.
- `dormouse.bench_offload`: `dormouse bench offload --out DIR`: ms/step, peak memory and bytes moved for every activation-offload arm, then the largest batch a 16 GiB card trains with offload off and on; and what the committed run on one H200 says.
- `dormouse.bench_prefetch`: Host-RAM Engram rows at device speed? Milliseconds per training step with the Engram off, in device mode, in host mode synchronous and pipelined, at table sizes up to 32M rows per order; and the pipeline's exactness on the GPU.
- `dormouse.bench_profile`: Where the time of one optimizer step goes: attention, the experts, the router, the Engram, the loss, the optimizer's Newton–Schulz and its other work, and, on a GPU, the time no kernel runs.
- `dormouse.bench_throughput`: How many bytes per second `small` and `dormouse-1b` train at, and what each throughput lever buys: accumulation over a larger effective batch, a larger micro-batch, compiled blocks and the Triton Newton–Schulz, side by side in one run against today's path.
- `dormouse.bench_train`: What one training step of each preset costs on the GPU: step time, throughput, MFU and memory, measured through the real loop.
- `dormouse.check`: The model's two expert paths and `BankMuon` against `torch.optim.Muon`, on the CPU here and on the GPU with `dormouse check --out DIR`.
- `dormouse.checkpoint`: A directory per checkpoint, written to a temporary name, fsynced and renamed; a manifest of sha256 sums; a `latest` pointer replaced atomically; loading that never runs code.
- `dormouse.compute_gain`: What a host table buys, priced in compute: how many steps a run without it needs to reach the same held-out BPB, and how many seconds.
- `dormouse.decision`: An experiment's runs read back into tables, and the spec's rule applied to them with every gate checked: keep, kill or no verdict, and why; and the report's views of the same record.
- `dormouse.distributed`: `torchrun` runs the same training on several processes: the backbone under DDP or sharded by FSDP2, each rank a share of every micro-batch, the Engram's row gradients of all ranks merged into one update, checkpoints any world size can read.
- `dormouse.evaluate`: A model's bits per byte on held-out bytes, a checkpoint loaded back into a model, and `dormouse eval`: one trained model scored on any byte file.
- `dormouse.findings`: What the records in `runs/` conclude: the conclusion, one figure of every arm's effect against its control, and each question's answer with its A/B's verdicts in words.
- `dormouse.lock`: One process per run directory: a second one is refused at once, naming the holder; a lock left by a killed process is taken over safely.
- `dormouse.model`: A byte-level language model: byte embedding (+ Engram rows) → dense prelude → one weight-shared loop block (attention + mixture of experts) applied `n_loops` times → dense coda → LM head.
- `dormouse.newton_schulz`: The bank's Newton–Schulz with Triton kernels that compute X·Xᵀ and b·A + c·A·A on the tiles on and above the diagonal only, mirrored, batched over a chunk of experts (`optim.ns_impl: triton`).
- `dormouse.offload`: Park a block's saved activations in host RAM during the forward and bring them back for the backward: bit-identical gradients, a counter that proves it ran, and two transfer paths.
- `dormouse.optim`: Muon for 2-D hidden matrices, a batched Muon for 3-D expert banks, AdamW for the rest; the learning-rate schedule.
- `dormouse.prefetch`: The next batch's Engram rows gathered, pinned and copied to the GPU while the current step computes; the host update off the critical path; exact despite rows shared by consecutive steps.
- `dormouse.run_loop`: The loop around the step: batches by step number, the schedule, a per-step log, checkpoints that resume bit for bit, and a `metrics.json` a researcher can trust.
- `dormouse.spec`: An A/B design written down before the runs: arms, seeds, the metric, the rule and the gates, in a YAML file that is checked field by field before anything runs.
- `dormouse.step`: The step every trainer takes — micro-batches, bf16 autocast, clipping, the Engram's update, the optimizers — and how it runs: seeded and repeatable, with compiled blocks, timed by phase."""

__version__ = "0.1.0"

import os as _os
# The thread policy of every entry point (train, ab, bench, notebooks that import dormouse first):
# numba's and torch's OpenMP pools spin-wait against each other on a shared CPU unless idle threads
# sleep (an Engram arm measured 3-55x slower). libgomp reads this when torch or numba first loads
# it, so it is set here, before either is imported; an OMP_WAIT_POLICY in the environment wins.
_os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
# numba's OpenMP layer sets the process's OpenMP thread count to its own pool size (all cores) when it
# starts, so torch would silently run on every core after the Engram's first update: one thread count
# for both, the user's. Only before numba is imported: numba refuses a pool size that changes after its
# threads started (a notebook that imported numba first keeps numba's own count).
# A thread count that is not a whole number >= 1 (0, -2, abc) would stop numba at import, --help included, and make
# libgomp warn: one line says so and the default count is used.
_v = _os.environ.get("OMP_NUM_THREADS")
if _v is not None and not (_v.split(",")[0].strip().isdigit() and int(_v.split(",")[0]) >= 1):
    print(f"dormouse: OMP_NUM_THREADS={_v!r} is not a whole number >= 1; ignored (the default thread count is used)",
          file=__import__("sys").stderr)
    del _os.environ["OMP_NUM_THREADS"]
if _os.environ.get("OMP_NUM_THREADS") and "numba" not in __import__("sys").modules:
    _os.environ.setdefault("NUMBA_NUM_THREADS", _os.environ["OMP_NUM_THREADS"].split(",")[0].strip())   # "4,2": the outer level
del _v
