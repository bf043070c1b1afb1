"""Write README.md from nbs/index.ipynb (nbdev-readme needs Quarto, which these machines lack).
Markdown cells as they are; code cells unless `#| hide` or `#| echo: false` (shown on the site as their output only); the nbdev front matter (`# title`, `> summary`) kept."""
import json, sys
from pathlib import Path

def readme(nb=Path("nbs/index.ipynb")) -> str:
    out = []
    for c in json.loads(Path(nb).read_text())["cells"]:
        src = "".join(c["source"])
        if c["cell_type"] == "markdown": out.append(src)
        elif c["cell_type"] == "code" and not any(l.strip().replace(" ", "") in ("#|hide", "#|echo:false") for l in src.splitlines()):
            out.append(f"```python\n{src}\n```")
    return "<!-- generated from nbs/index.ipynb by tools/readme.py: edit the notebook -->\n\n" + "\n\n".join(out) + "\n"

if __name__ == "__main__":
    txt = readme()
    if sys.argv[1:] == ["--check"]:
        if not Path("README.md").exists() or Path("README.md").read_text() != txt:
            sys.exit("README.md is not what nbs/index.ipynb gives: run `make export`")
    else: Path("README.md").write_text(txt)
