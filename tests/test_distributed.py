"""`torchrun` on the CPU with gloo: two ranks of 4 windows train what one process of 8 windows trains (losses,
Engram tables and their momentum, to a bound measured here: the single process against itself with each
micro-batch's rows reversed, the same sums added in another order), a rank killed with SIGKILL stops the job without a
hang and the same command resumes it, and checkpoints move between world sizes (1 -> 2 and 2 -> 1) or are refused
in one line when the batch does not split. The same for `train.parallel=fsdp` (FSDP2: the backbone sharded, the bank
by expert): two ranks train what one process trains within the same bound, a killed rank stops the job and the
command resumes it bit for bit (its checkpoints sharded, through torch.distributed.checkpoint), and a bank whose
experts do not divide by the world size is refused in one line. With `engram.placement=node` (one host table per node
in shared memory, the prefetch pipeline on) two ranks train what one process trains within the same bound, the ranks'
proportional shares (`Pss`) of the table add up to one table where copies add up to two, and a killed rank's job
resumes bit for bit. With `engram.placement=owner` two nodes of one rank each (two torchrun agents on this machine)
hold half the rows each, send each row gradient only to its owner, and train what one process trains within the
same bound; against the node's shared table (the same two ranks' merged gradients) their tables part by at most one
float32 step of the largest value, the rounding of Sinkhorn's column sums added over the nodes; their checkpoint
resumes on the two nodes bit for bit.

The runs: `tiny` with a host-mode Engram, the split bank, 8-bit bank momentum and two micro-batches per step, one
OpenMP thread per rank (helpers.env)."""
import json, os, shutil, signal, socket, subprocess, sys, time
from pathlib import Path

import numpy as np
import pytest
from helpers import CLI, ROOT, digest, env, log, run, train_cmd

STEPS, CKPT_EVERY, KILL_AT = 4, 2, 3
SETS = ["engram.enabled=true", "engram.rows=4096", "engram.ram_reserve_gb=0.5", "optim.bank_dtype=split",
        "optim.bank_state=int8", "train.accum=2", "data.batch_size=8", "data.seq_len=64", f"train.steps={STEPS}",
        f"train.ckpt_every={CKPT_EVERY}", "train.eval_bytes=2048", "train.log_every=1", "train.progress=false",
        "train.device=cpu"]
TORCHRUN = [sys.executable, "-m", "torch.distributed.run", "--nproc-per-node", "2", "--max-restarts", "0",
            "--monitor-interval", "0.5"]


FSDP = [*SETS, "train.parallel=fsdp"]
NODE = [*SETS, "engram.placement=node", "engram.prefetch=true"]    # the pipeline's worker applies the node's updates
OWNER = [*SETS, "engram.placement=owner"]


def two_nodes(out, sets=OWNER):
    "Two torchrun agents of one rank each (nodes 0 and 1, static rendezvous on a free local port): their outputs."
    with socket.socket() as s: s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]
    cmd = lambda k: [sys.executable, "-m", "torch.distributed.run", "--nnodes", "2", "--node-rank", str(k), "--nproc-per-node", "1",
                     "--master-addr", "127.0.0.1", "--master-port", str(port), "--max-restarts", "0", "--monitor-interval", "0.5",
                     "-m", "dormouse", *train_cmd(out, sets)[len(CLI):]]
    procs = [subprocess.Popen(cmd(k), cwd=ROOT, env=env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) for k in (0, 1)]
    outs = [p.communicate(timeout=600)[0] for p in procs]
    for p, o in zip(procs, outs): assert p.returncode == 0, o[-3000:]
    return outs


def ranks_cmd(out, sets=SETS, script=None):
    "`dormouse train` through torchrun on two local ranks (`script`: a launcher in place of `-m dormouse`)."
    what = [str(script)] if script else ["-m", "dormouse"]
    return [*TORCHRUN, *what, *train_cmd(out, sets)[len(CLI):]]


def losses(out): return [float(r["loss"]) for r in log(out)]


def tables(out, step=STEPS):
    "Weights and momentum `[2, rows, dim]` of the checkpoint of `step`, and its `engram.json`."
    d = Path(out) / "ckpt" / f"step_{step:06d}"
    man = json.loads((d / "engram.json").read_text())
    return np.fromfile(d / "engram.bin", dtype=np.float32), man


REVERSED = """import sys
import dormouse.run_loop as train
batch = train._Run.batch
train._Run.batch = lambda self, i: batch(self, i).flip(0)    # the same windows, the rows in the other order
from dormouse.cli import main
sys.exit(main())
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """One process; the same with each micro-batch's rows reversed (the same sums, added in another order: the
    measured bound); two ranks. Their run directories."""
    root = tmp_path_factory.mktemp("dist")
    one, flipped, two, sharded, node = root / "one", root / "flipped", root / "two", root / "fsdp", root / "node"
    (root / "reversed.py").write_text(REVERSED)
    start = lambda args: subprocess.Popen(args, cwd=ROOT, env=env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    procs = [start(train_cmd(one, SETS)), start([sys.executable, str(root / "reversed.py"), *train_cmd(flipped, SETS)[len(CLI):]])]
    r = run(ranks_cmd(two), check=False)
    f = run(ranks_cmd(sharded, FSDP), check=False)
    assert f.returncode == 0, f.stdout[-3000:] + f.stderr[-3000:]
    n = run(ranks_cmd(node, NODE), check=False)
    assert n.returncode == 0, n.stdout[-3000:] + n.stderr[-3000:]
    for p in procs:
        out = p.communicate(timeout=600)[0]
        assert p.returncode == 0, out[-3000:]
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return dict(one=one, flipped=flipped, two=two, fsdp=sharded, node=node)


SLACK = 8   # two draws of rounding noise: the ranks' gap may exceed the one measured by a few times


def bound(a, b, ref):
    "The largest difference between `a` and `b`, at least one float32 ulp of `ref`'s largest value."
    return max(np.abs(a - b).max(), np.spacing(np.float32(np.abs(ref).max())))


@pytest.mark.parametrize("kind", ["two", "fsdp", "node"])
def test_two_ranks_train_what_one_process_trains(runs, kind):
    one, flipped, two = (np.array(losses(runs[k])) for k in ("one", "flipped", kind))
    tol, gap = bound(one, flipped, one), np.abs(one - two).max()
    print(f"\nlosses, 1 process:        {one.tolist()}\nlosses, rows reversed:    {flipped.tolist()}"
          f"\nlosses, 2 ranks ({kind}):   {two.tolist()}\nlargest gap, 2 ranks ({kind}) {gap:.3g}; rows reversed {tol:.3g}")
    assert len(one) == len(two) == STEPS
    assert gap <= SLACK * tol, "two ranks and one process part by more than the measured reordering noise allows"
    m = json.loads((runs[kind] / "metrics.json").read_text())
    assert m["parallel"] == ("fsdp" if kind == "fsdp" else "ddp")
    assert m["world_size"] == 2 and m["segments"][0]["world_size"] == 2 and m["tokens_per_step"] == 8 * 2 * 64


@pytest.mark.parametrize("kind", ["two", "fsdp", "node"])
def test_two_ranks_update_the_tables_as_one_process(runs, kind):
    (w1, m1), (w2, m2), (w3, _) = tables(runs["one"]), tables(runs[kind]), tables(runs["flipped"])
    assert m1["t"] == m2["t"] == STEPS
    n = len(w1) // 2           # weights, then momentum
    for part, sl in (("tables", slice(0, n)), ("momentum", slice(n, None))):
        tol, gap = bound(w1[sl], w3[sl], w1[sl]), np.abs(w1[sl] - w2[sl]).max()
        print(f"\n{part}: largest difference 2 ranks ({kind}) {gap:.3g}, rows reversed {tol:.3g}, largest value {np.abs(w1[sl]).max():.3g}")
        assert gap <= SLACK * tol, part


@pytest.mark.parametrize("kind", ["two", pytest.param("fsdp", marks=pytest.mark.slow), pytest.param("node", marks=pytest.mark.slow)])
def test_a_killed_rank_stops_the_job_and_the_command_resumes(runs, tmp_path, kind):
    sets = dict(fsdp=FSDP, node=NODE).get(kind, SETS)
    out = tmp_path / "killed"
    launcher = tmp_path / "pause_rank1.py"
    launcher.write_text(f"""import os, sys, time
if os.environ.get("RANK") == "1":
    import dormouse.run_loop as train
    after = train._Run.after_step
    def after_then_pause(self, done):
        after(self, done)
        if done == {KILL_AT}: print("PAUSED", os.getpid(), flush=True); time.sleep(3600)
    train._Run.after_step = after_then_pause
from dormouse.cli import main
sys.exit(main())
""")
    p = subprocess.Popen(ranks_cmd(out, sets, script=launcher), cwd=ROOT, env=env(), stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    seen, t0 = [], time.time()
    for line in p.stdout:
        seen.append(line)
        if line.startswith("PAUSED"): break
        assert time.time() - t0 < 600, "".join(seen[-30:])
    else: raise AssertionError("rank 1 never paused: " + "".join(seen[-30:]))
    os.kill(int(line.split()[1]), signal.SIGKILL)
    t_kill = time.time()
    rest = p.communicate(timeout=120)[0]               # rank 0 waits in a collective: torchrun's agent must stop it
    stopped = time.time() - t_kill
    print(f"\n{kind}: torchrun exited {p.returncode} {stopped:.1f} s after the kill")
    assert p.returncode != 0 and stopped < 60, rest[-2000:]
    assert (out / "ckpt" / f"step_{CKPT_EVERY:06d}").is_dir() and not (out / "ckpt" / f"step_{2 * CKPT_EVERY:06d}").exists()
    if kind == "fsdp": assert (out / "ckpt" / f"step_{CKPT_EVERY:06d}" / "dcp" / ".metadata").is_file()
    r = run(ranks_cmd(out, sets))
    assert "resuming from" in r.stdout + r.stderr
    assert log(out) and [x["loss"] for x in log(out)] == [x["loss"] for x in log(runs[kind])], "the resumed run differs"
    assert np.array_equal(tables(out)[0], tables(runs[kind])[0])


def test_a_node_holds_one_table(runs):
    """The ranks' `Pss` of the host table (a page mapped by k processes counts 1/k in each) add up to one table with
    `engram.placement=node`, to two with a copy per rank: the same measure tells the two apart."""
    m = {k: json.loads((runs[k] / "metrics.json").read_text()) for k in ("node", "two")}
    table = m["node"]["engram_table_kb"]
    node, copies = sum(m["node"]["engram_table_pss_kb"]), sum(m["two"]["engram_table_pss_kb"])
    print(f"\ntable {table} kB; Pss of the ranks: one per node {m['node']['engram_table_pss_kb']} kB (sum {node}), "
          f"a copy per rank {m['two']['engram_table_pss_kb']} kB (sum {copies})")
    assert m["node"]["engram_placement"] == "node" and m["two"]["engram_placement"] == "rank" and m["node"]["engram_pipelined"]
    assert table / 2 < node <= table * 1.05, "one table per node takes more (or less) than one table"
    assert copies >= 1.9 * table, "copies per rank should take two tables: the measure did not see them"


@pytest.mark.slow
def test_two_nodes_own_their_rows_and_train_what_one_process_trains(runs, tmp_path):
    """Two nodes of one rank, each node's table its half of the rows: losses and tables within the 2-rank bound of the
    single process; against the node-shared run (the same ranks, the same merged gradients, the whole update on one
    table) the weights part by one float32 step of the largest value at most, the momentum not at all (Sinkhorn's
    column sums: two trees added, not one; 1.19e-7 measured, at a value of 1.15). Each row gradient travels once, to
    the lead of its owner node (`to_owners`): rank 0 sends each step as many as it read, and the ranks receive as many
    as were sent, each fewer than all of them; the node-shared run's all-gather gives every rank every row. The
    checkpoint of step 2 resumes on the two nodes to the same losses and tables, bit for bit."""
    out = tmp_path / "owner"
    two_nodes(out)
    one, flipped, owned = (np.array(losses(r)) for r in (runs["one"], runs["flipped"], out))
    tol = bound(one, flipped, one)
    print(f"\nlosses, 2 nodes owning rows: {owned.tolist()}\nlargest gap {np.abs(one - owned).max():.3g}; rows reversed {tol:.3g}")
    assert len(owned) == STEPS and np.abs(one - owned).max() <= SLACK * tol
    (w1, m1), (w2, m2), (w3, _), (wn, _) = tables(runs["one"]), tables(out), tables(runs["flipped"]), tables(runs["node"])
    assert m1["t"] == m2["t"] == STEPS
    n = len(w1) // 2
    for part, sl in (("tables", slice(0, n)), ("momentum", slice(n, None))):
        tol, gap, shared = bound(w1[sl], w3[sl], w1[sl]), np.abs(w1[sl] - w2[sl]).max(), np.abs(wn[sl] - w2[sl]).max()
        print(f"{part}: largest difference 2 nodes {gap:.3g}, rows reversed {tol:.3g}; against one table per node {shared:.3g}")
        assert gap <= SLACK * tol, part
    assert np.abs(wn[:n] - w2[:n]).max() <= np.spacing(np.float32(np.abs(w1[:n]).max())) and np.array_equal(wn[n:], w2[n:])
    m = json.loads((out / "metrics.json").read_text())
    assert m["engram_placement"] == "owner" and m["world_size"] == 2 and not m["engram_pipelined"]
    assert m["engram_table_kb"] * 2 == json.loads((runs["node"] / "metrics.json").read_text())["engram_table_kb"]   # half each
    sent, got, lg = m["engram_grad_rows_sent"], m["engram_grad_rows_received"], log(out)
    print(f"row gradients over the run: sent {sent}, received {got}; rank 0 read {sum(int(r['unique_rows']) for r in lg)}")
    assert all(r["grad_rows_sent"] == r["unique_rows"] for r in lg)      # each row once, to its owner (gathered: to both ranks)
    assert sent[0] == sum(int(r["unique_rows"]) for r in lg) and sum(got) == sum(sent)
    assert all(0 < g < sum(sent) for g in got)      # each owner gets its range's rows, not every rank's
    nm = json.loads((runs["node"] / "metrics.json").read_text())     # the all-gather: every rank gets every row
    assert nm["engram_grad_rows_received"] == [sum(nm["engram_grad_rows_sent"]) // 2] * 2
    again = tmp_path / "owner_resumed"
    resume_copy(out, again, CKPT_EVERY)
    assert any("resuming from" in o for o in two_nodes(again))
    assert [x["loss"] for x in log(again)] == [x["loss"] for x in log(out)] and np.array_equal(tables(again)[0], tables(out)[0])


def resume_copy(src, dst, step):
    "A copy of run `src` cut back to its checkpoint of `step` (its later checkpoints, log rows and metrics gone)."
    shutil.copytree(src, dst)
    (dst / "metrics.json").unlink()
    for c in (dst / "ckpt").glob("step_*"):
        if int(c.name[5:]) > step: shutil.rmtree(c)
    (dst / "ckpt" / "latest").write_text(f"step_{step:06d}\n")


@pytest.mark.slow
def test_checkpoints_move_between_world_sizes(runs, tmp_path):
    one = np.array(losses(runs["one"]))
    tol = bound(one, np.array(losses(runs["flipped"])), one)
    up, down = tmp_path / "one_to_two", tmp_path / "two_to_one"
    resume_copy(runs["one"], up, CKPT_EVERY); resume_copy(runs["two"], down, CKPT_EVERY)
    run(ranks_cmd(up)); run(train_cmd(down, SETS))
    for moved, ref in ((up, runs["one"]), (down, runs["two"])):
        a, b = np.array(losses(moved)), np.array(losses(ref))
        assert np.array_equal(a[:CKPT_EVERY], b[:CKPT_EVERY])     # the log kept up to the checkpoint
        print(f"\n{moved.name}: largest loss gap after the move {np.abs(a - b).max():.3g} (tolerance {tol:.3g})")
        assert np.abs(a - b).max() <= SLACK * tol
    world = lambda run: [s.get("world_size", 1) for s in json.loads((run / "metrics.json").read_text())["segments"]]
    assert world(up) == [1, 2] and world(down) == [2, 1]      # each part of the run names its world size


def test_a_batch_that_does_not_split_is_refused_in_one_line(tmp_path):
    r = run(ranks_cmd(tmp_path / "odd", [*SETS, "data.batch_size=7"]), check=False)
    assert r.returncode != 0
    lines = [l for l in (r.stdout + r.stderr).splitlines() if l.startswith("dormouse train: ")]
    assert lines and all("data.batch_size=7" in l and "2 ranks" in l for l in lines), r.stdout[-2000:] + r.stderr[-2000:]
    assert not (tmp_path / "odd" / "ckpt").exists()


@pytest.mark.slow
def test_a_bank_that_does_not_split_is_refused_in_one_line(tmp_path):
    r = run(ranks_cmd(tmp_path / "odd", [*FSDP, "model.n_experts=3", "model.top_k=2"]), check=False)
    assert r.returncode != 0
    lines = [l for l in (r.stdout + r.stderr).splitlines() if l.startswith("dormouse train: ")]
    assert lines and all("model.n_experts=3" in l and "2 ranks" in l for l in lines), r.stdout[-2000:] + r.stderr[-2000:]
    assert not (tmp_path / "odd" / "ckpt").exists()


RESAVE = """import sys
import dormouse.distributed as d
opened = d.RankRun.open
def open_then_save(self):
    opened(self); self.checkpoint(self.start); return self    # the state as loaded, written back at once (sharded)
d.RankRun.open = open_then_save
from dormouse.cli import main
sys.exit(main())
"""


@pytest.mark.slow
def test_a_whole_checkpoint_moves_to_fsdp_ranks_and_back(runs, tmp_path):
    """1 -> fsdp 2 -> 1: the single process's checkpoint of step 2 resumed on 2 sharded ranks, which write what they
    loaded straight back as a sharded checkpoint of step 2 and train on; that checkpoint resumed in one process ends
    with the unmoved single process's losses, tables and weights to the bit (the move changed nothing), and under DDP
    within the bound."""
    one = np.array(losses(runs["one"]))
    tol = bound(one, np.array(losses(runs["flipped"])), one)
    up, back, ddp = tmp_path / "one_to_fsdp", tmp_path / "fsdp_to_one", tmp_path / "fsdp_to_ddp"
    resume_copy(runs["one"], up, CKPT_EVERY)
    (tmp_path / "resave.py").write_text(RESAVE)
    r = run(ranks_cmd(up, FSDP, script=tmp_path / "resave.py"))
    assert "resuming from" in r.stdout + r.stderr
    moved = up / "ckpt" / f"step_{CKPT_EVERY:06d}"
    assert (moved / "dcp" / ".metadata").is_file() and not (moved / "model.pt").exists()
    score = lambda ck: {k: v for k, v in json.loads(run([*CLI, "eval", "--ckpt", str(ck), "--json"]).stdout.splitlines()[-1]).items() if k != "ckpt"}
    assert score(moved) == score(runs["one"] / "ckpt" / f"step_{CKPT_EVERY:06d}")    # `dormouse eval` of the sharded one: the same
    resume_copy(up, back, CKPT_EVERY); resume_copy(up, ddp, CKPT_EVERY)
    p = subprocess.Popen(train_cmd(back, SETS), cwd=ROOT, env=env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    run(ranks_cmd(ddp))
    out = p.communicate(timeout=600)[0]
    assert p.returncode == 0, out[-3000:]
    for d, ref in ((up, runs["one"]), (ddp, runs["one"])):
        a = np.array(losses(d))
        assert [x["loss"] for x in log(d)][:CKPT_EVERY] == [x["loss"] for x in log(ref)][:CKPT_EVERY]
        print(f"\n{d.name}: largest loss gap to the single process {np.abs(a - one).max():.3g} (tolerance {tol:.3g})")
        assert len(a) == STEPS and np.abs(a - one).max() <= SLACK * tol
    assert [x["loss"] for x in log(back)] == [x["loss"] for x in log(runs["one"])], "the move changed the state"
    assert np.array_equal(tables(back)[0], tables(runs["one"])[0])
    last = lambda d, f: d / "ckpt" / f"step_{STEPS:06d}" / f
    assert all(digest(last(back, f)) == digest(last(runs["one"], f)) for f in ("model.pt", "optim.pt"))
    metrics = lambda d: json.loads((d / "metrics.json").read_text())
    world = lambda d: [s.get("world_size", 1) for s in metrics(d)["segments"]]
    assert world(up) == [1, 2] and metrics(up)["parallel"] == "fsdp"
    assert world(back) == [1, 2, 1] and world(ddp) == [1, 2, 2]     # the ranks' part of step 2 to 2: the written-back state
