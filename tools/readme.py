"""Write README.md from nbs/index.ipynb (nbdev-readme needs Quarto, which these machines lack).

Markdown cells as they are; code cells shown as code unless `#| hide`; the nbdev front matter (`# title`, `> summary`)
kept. A cell with `#| echo: false` is shown on the site as its output only, so here it is run (in order, sharing one
namespace, from the repository root) and its value written in its place: its Markdown, else its HTML. That is how the
README's results table is computed from the records in `runs/` each time the README is written, and why
`readme.py --check` fails once the records and the README disagree. Links relative to the site's home page become
links into the published site, which is where they resolve from GitHub's front page.

    python tools/readme.py           write README.md
    python tools/readme.py --check   exit 1 unless README.md is what nbs/index.ipynb and runs/ give
"""
import contextlib, html, io, json, os, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SITE = "https://dormouse-ml.github.io/dormouse/"   # the published docs site (.github/workflows/deploy.yaml)
HEADER = "<!-- generated from nbs/index.ipynb and the records in runs/ by tools/readme.py: edit the notebook -->\n\n"


def directives(src: str) -> set:
    "The cell's nbdev directives, spaces dropped: {'#|hide', '#|echo:false', ...}."
    return {l.strip().replace(" ", "") for l in src.splitlines() if l.strip().startswith("#|")}


def on_site(text: str) -> str:
    "Relative links (Markdown and HTML) pointed at the published site: README.md sits where the home page does."
    text = re.sub(r'(href|src)="(?![a-z]+:|#|/)([^"]+)"', lambda m: f'{m[1]}="{SITE}{m[2]}"', text)
    return re.sub(r"\]\((?![a-z]+:|#|/)([^)\s]+\.html[^)\s]*)\)", lambda m: f"]({SITE}{m[1]})", text)


def inline(cell: str) -> str:
    "A table cell's HTML as Markdown: links and code spans, entities decoded, pipes escaped."
    cell = re.sub(r'<a href="([^"]*)"[^>]*>(.*?)</a>', r"[\2](\1)", cell)
    cell = re.sub(r"<code>(.*?)</code>", r"`\1`", cell)
    return html.unescape(re.sub(r"<[^>]+>", "", cell)).replace("|", "\\|").strip()


def md_tables(text: str) -> str:
    "Each simple HTML table (one cell per <td>/<th>, none nested) as a Markdown table, so README.md reads as text too."
    def table(m):
        trs = re.findall(r"<tr[^>]*>(.*?)</tr>", m[0], re.S)
        rows = [re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", r, re.S) for r in trs]
        n = max(map(len, rows))
        head = rows.pop(0) if "<th" in m[0] else [""] * n
        line = lambda cells: "| " + " | ".join(inline(c) for c in cells + [""] * (n - len(cells))) + " |"
        return "\n".join([line(head), "|" + ":--|" * n] + [line(r) for r in rows]) + "\n"
    text = re.sub(r"<table[^>]*>.*?</table>", table, text, flags=re.S)
    return re.sub(r"<p>(.*?)</p>", lambda m: "\n" + inline(m[1]) + "\n", text, flags=re.S).strip()


def shown(value) -> str:
    "What an `#| echo: false` cell's value shows: its Markdown, else its HTML with its tables made Markdown."
    if hasattr(value, "_repr_markdown_") and (text := value._repr_markdown_()) is not None: return on_site(text.strip())
    if hasattr(value, "_repr_html_") and (text := value._repr_html_()) is not None: return md_tables(on_site(text))
    raise SystemExit(f"readme: an `#| echo: false` cell of nbs/index.ipynb gives {type(value).__name__}, "
                     "which has neither Markdown nor HTML")


def run_cell(src: str, ns: dict):
    "Run a cell as Jupyter would and return its last expression's value (None if it ends in a statement)."
    import ast
    tree = ast.parse(src)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    with contextlib.redirect_stdout(io.StringIO()):   # what the cell prints is not the README's
        exec(compile(tree, "<index.ipynb>", "exec"), ns)
        return eval(compile(ast.Expression(last.value), "<index.ipynb>", "eval"), ns) if last else None


def readme(nb: Path = ROOT / "nbs/index.ipynb") -> str:
    out, ns = [], {"__name__": "__main__"}
    here = os.getcwd()
    os.chdir(ROOT)   # the package reads runs/ relative to the repository
    sys.path.insert(0, str(ROOT))
    try:
        for c in json.loads(Path(nb).read_text())["cells"]:
            src, d = "".join(c["source"]), directives("".join(c["source"]))
            if c["cell_type"] == "markdown": out.append(src)
            elif c["cell_type"] != "code" or "#|hide" in d: continue
            elif "#|echo:false" in d: out.append(shown(run_cell(src, ns)))
            else: out.append(f"```python\n{src}\n```")
    finally:
        os.chdir(here)
        sys.path.remove(str(ROOT))
    return HEADER + "\n\n".join(out) + "\n"


if __name__ == "__main__":
    txt = readme()
    path = ROOT / "README.md"
    if sys.argv[1:] == ["--check"]:
        if not path.exists() or path.read_text() != txt:
            sys.exit("README.md is not what nbs/index.ipynb and the records in runs/ give: run `make export`")
    else:
        path.write_text(txt)
