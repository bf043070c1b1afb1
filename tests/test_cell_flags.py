"""A chapter's `#| gpu` or plain cell must not need a name that only a cell of another flag binds.

`nbdev-test --flags gpu` (what `tools/gpu_run.sh check` runs) skips the `#| slow` cells, and the CPU run skips
both: a GPU cell that reads what only a slow cell made stops its chapter with a NameError, on the one machine
where the cells after it were to run. This reads the cells' code (nothing is run) and names each such use."""
import ast
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FLAG = re.compile(r"^#\|\s*(gpu|slow)\s*$", re.M)


def _bound(tree) -> set:
    "Every name a cell binds: assignments, loop and comprehension targets, arguments, definitions, imports."
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return names


def flag_leaks(cells: list[str]) -> list[tuple]:
    """(cell number, name, its flags, the flags of the cells that bind it) for each name a cell reads that only
    earlier cells bind, none of them run whenever this cell runs (their flags not a subset of its own)."""
    binders, leaks = {}, []
    for i, src in enumerate(cells):
        code = "\n".join(line for line in src.splitlines() if not line.lstrip().startswith(("%", "!")))
        try:
            tree = ast.parse(code)
        except SyntaxError:
            continue
        flags, own = frozenset(FLAG.findall(src)), _bound(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in own:
                earlier = binders.get(node.id, [])
                if earlier and not any(f <= flags for f in earlier):
                    leaks.append((i, node.id, sorted(flags), sorted(sorted(f) for f in earlier)))
        for name in own:
            binders.setdefault(name, []).append(flags)
    return leaks


def code_cells(nb: Path) -> list[str]:
    return ["".join(c["source"]) for c in json.loads(nb.read_text())["cells"] if c["cell_type"] == "code"]


def test_the_check_finds_a_gpu_cell_that_reads_a_slow_cells_name():
    cells = ["#| slow\nsets_c = ['train.steps=6']\nrun(sets_c)", "#| gpu\nrun([*sets_c, 'train.compile=true'])",
             "#| gpu\n#| slow\nrun(sets_c)", "x = 1", "#| gpu\nprint(x)"]
    assert flag_leaks(cells) == [(1, "sets_c", ["gpu"], [["slow"]])]


def test_no_cell_reads_a_name_only_another_flags_cells_bind():
    leaks = {str(nb.relative_to(ROOT)): flag_leaks(code_cells(nb)) for nb in sorted((ROOT / "nbs").rglob("*.ipynb"))}
    leaks = {k: v for k, v in leaks.items() if v}
    assert not leaks, f"cells reading names that only cells of other flags bind (cell number, name, flags): {leaks}"
