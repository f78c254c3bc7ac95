"""The manual: the README's front page and the MkDocs site under ``docs/``.

The site's home page is the README with its links made relative to ``docs/`` (so the two
never drift: ``python tests/test_docs.py`` rewrites it), and ``mkdocs build --strict`` fails
on a broken link, a page missing from the navigation or an anchor that does not exist.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
INDEX = ROOT / "docs" / "index.md"


def index_from_readme() -> str:
    """The README as the site's home page: ``docs/x.md`` links become ``x.md``."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    text = text.replace("[`docs/`](docs/)", "`docs/`")
    text = re.sub(r"\]\(docs/", "](", text)
    return re.sub(r"`LICENSE`", "`LICENSE` (in the repository)", text)


PARTS_START = "<!-- parts: written from docs/structure.json -->"
PARTS_END = "<!-- end of parts -->"


def parts_tables() -> str:
    """The parts and the nevers of ``docs/structure.json`` as two Markdown tables."""
    board = json.loads((ROOT / "docs" / "structure.json").read_text(encoding="utf-8"))
    rows = ["| part | files | what it is |", "|---|---|---|"]
    for name, part in board["parts"].items():
        files = ", ".join(f"`{path}`" for path in part["is"])
        rows.append(f"| {name} | {files} | {part.get('says', '')} |")
    rows += ["", "| never | because |", "|---|---|"]
    rows += [f"| {frm} -> {to} | {why} |" for frm, to, why in board["never"]]
    return "\n".join(rows)


def architecture_page() -> str:
    """``docs/architecture.md`` with its tables rewritten from ``docs/structure.json``."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    head, _, rest = text.partition(PARTS_START)
    _, _, tail = rest.partition(PARTS_END)
    return f"{head}{PARTS_START}\n{parts_tables()}\n{PARTS_END}{tail}"


def test_the_architecture_page_draws_the_structure_the_tests_hold() -> None:
    assert (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8") == (
        architecture_page()), "docs/architecture.md differs: run python tests/test_docs.py"


def test_the_site_home_page_is_the_readme() -> None:
    assert INDEX.read_text(encoding="utf-8") == index_from_readme(), (
        "docs/index.md differs from README.md: run python tests/test_docs.py")


def test_every_readme_link_names_a_file_that_exists() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#]+)", text)
    assert targets
    missing = [t for t in targets if not t.startswith("http") and not (ROOT / t).exists()]
    assert not missing


def test_the_readme_is_a_front_page_read_in_five_minutes() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150, f"{len(lines)} lines: move the reference into docs/"


def test_the_site_builds_strict(tmp_path: Path) -> None:
    mkdocs = shutil.which("mkdocs")
    if mkdocs is None:
        pytest.skip("mkdocs is not installed (pip install -e '.[test]' installs it)")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-4000:]
    page = (tmp_path / "site" / "studio" / "index.html").read_text(encoding="utf-8")
    assert "Studio" in page


if __name__ == "__main__":
    INDEX.write_text(index_from_readme(), encoding="utf-8")
    (ROOT / "docs" / "architecture.md").write_text(architecture_page(), encoding="utf-8")
    print("wrote docs/index.md and docs/architecture.md")
