"""Train a byte-level mixture-of-experts LM on one GPU, with host RAM as capacity

Modules:

- `dormouse.bench_engram`: The measuring code for the host update and the Engram train step, as plain python: `python -m dormouse.bench_engram --out DIR` on any machine, CSV + JSON out.
- `dormouse.bench_offload`: `dormouse bench offload --out DIR`: ms/step, peak memory and bytes moved for every activation-offload arm, then the largest batch a 16 GiB card trains with offload off and on; and what the committed run on one H200 says.
- `dormouse.checkpoint`: A directory per checkpoint, written to a temporary name, fsynced and renamed; a manifest of sha256 sums; a `latest` pointer replaced atomically; loading that never runs code.
- `dormouse.model`: A byte-level language model: byte embedding (+ Engram rows) → dense prelude → one weight-shared loop block (attention + mixture of experts) applied `n_loops` times → dense coda → LM head.
- `dormouse.offload`: Park a block's saved activations in host RAM during the forward and bring them back for the backward: bit-identical gradients, a counter that proves it ran, and two transfer paths.
- `dormouse.optim`: Muon for 2-D hidden matrices, a batched Muon for 3-D expert banks, AdamW for the rest; the learning-rate schedule.
- `dormouse.prefetch`: The next batch's Engram rows gathered, pinned and copied to the GPU while the current step computes; the host update off the critical path; exact despite rows shared by consecutive steps.
- `dormouse.train`: The loop: batches by step number, bf16 autocast on CUDA, clipping, the schedule, a per-step log, checkpoints that resume bit for bit, and a `metrics.json` a researcher can trust."""

__version__ = "0.1.0"
