"""Shared test fixtures: where the public corpus and the project's library live."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The public corpus beside the repository (``../shared/corpus``); tests skip without it.
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
LIBRARY = ROOT / "puzzles"


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    if not CORPUS.is_dir():
        pytest.skip(f"the public corpus is not at {CORPUS}")
    return CORPUS
