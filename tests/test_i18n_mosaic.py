"""The mosaic's printed words come from the catalogues: a German issue prints its heading,
how-to line and solutions heading in German, and in the pseudo-locale none of them is left
in English."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from nonopress.cli import main

ROOT = Path(__file__).resolve().parent.parent


def _printed(tmp_path: Path, language: str) -> str:
    tool = shutil.which("pdftotext")
    if tool is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    manifest = tmp_path / "issue.yaml"
    manifest.write_text(
        f"title: Bilder\nissue: 1\nlanguage: {language}\nsolutions: true\n"
        f"puzzles:\n  - {ROOT / 'puzzles' / 'heart.yaml'}\n"
        f"mosaics:\n  - {ROOT / 'puzzles' / 'mosaic' / 'heart.yaml'}\n", encoding="utf-8")
    pdf = tmp_path / f"{language}.pdf"
    assert main(["issue", str(manifest), "-o", str(pdf), "-q"]) == 0
    text = subprocess.run([tool, str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    return " ".join(text.split())


def test_a_german_issue_prints_the_mosaic_in_german(tmp_path: Path) -> None:
    text = _printed(tmp_path, "de")
    assert "Mosaik 7x5" in text
    assert "Füllen Sie die Kästchen so, dass jede Ziffer" in text
    assert "Lösungen der Mosaike" in text
    assert "Mosaic" not in text and "Fill the cells" not in text


def test_no_mosaic_word_escapes_the_catalogue(tmp_path: Path) -> None:
    text = _printed(tmp_path, "en-XA")
    for english in ("Mosaic", "Fill the cells", "neighbours", "solutions"):
        assert english not in text, english
