"""The README's two commands, one after the other, in one fresh virtual environment.

``pip install .`` compiles the solver and ships the result (setup.py); the first run copies
it into the user's cache folder and compiles nothing. numba's own cache once lived inside the
installed package, where ``pip install -e`` left it behind as a namespace package that broke
the command (``cannot import name '__version__' from 'grader'``); it now lives in the user's
cache folder. This test installs from a copy of the working tree (so the checkout gets no
build folders), with a private cache folder, and takes a few minutes.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SKIPPED = {".git", ".venv", ".venv-ci", "build", "dist", ".mypy_cache", ".ruff_cache",
           ".pytest_cache", ".hypothesis", "__pycache__", "out"}  # fmt: skip

pytestmark = pytest.mark.slow


def _copy_tree(target: Path) -> Path:
    def ignore(folder: str, names: list[str]) -> set[str]:
        return {n for n in names if n in SKIPPED or n.endswith((".egg-info", ".nbi", ".nbc"))}

    shutil.copytree(ROOT, target, ignore=ignore)
    return target


def _run(command: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=1800, check=False
    )


def test_install_then_editable_install_leave_a_working_command(tmp_path: Path) -> None:
    source = _copy_tree(tmp_path / "nonopress")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "NONOPRESS_CACHE_DIR", "VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["XDG_CACHE_HOME"] = str(tmp_path / "user-cache")  # the user's cache folder
    pip = [str(bin_dir / "python"), "-m", "pip", "install", "-q"]

    # 1. install, then run the main job (the first run compiles the solver)
    first = _run([*pip, "."], source, env)
    if first.returncode != 0 and "No matching distribution" in first.stderr:
        pytest.skip("the package index cannot be reached from here")
    assert first.returncode == 0, first.stderr[-3000:]
    library = sorted(glob.glob(str(source / "puzzles" / "*.yaml")))
    graded = _run([str(bin_dir / "nonopress"), "grade", *library], source, env)
    # status 1: the library's Loaded Die has two solutions on purpose (the README says so)
    assert graded.returncode == 1, graded.stderr[-3000:]
    assert "Heart" in graded.stdout and "Loaded Die" in graded.stdout
    assert "Loaded Die: several solutions" in graded.stdout
    issue = _run([str(bin_dir / "nonopress"), "issue", "puzzles/issues/sample.yaml",
                  "-o", str(tmp_path / "issue.pdf")], source, env)
    assert issue.returncode == 0, issue.stderr[-3000:]
    assert (tmp_path / "issue.pdf").read_bytes().startswith(b"%PDF")
    # compiled by `pip install .` (issue 58): the first run only loads the kernels
    assert "compiling" not in graded.stderr, graded.stderr[-3000:]
    site = next((venv / "lib").glob("python*/site-packages")) if os.name != "nt" else (
        venv / "Lib" / "site-packages")
    seed = site / "grader" / "kernels_seed"
    assert list(seed.rglob("*.nbi")), "the install ships the compiled kernels"
    written = [p for p in (site / "grader").rglob("*")
               if p.suffix in (".nbi", ".nbc") and seed not in p.parents]
    assert not written, written  # numba writes nothing inside the installed package
    cache = tmp_path / "user-cache" / "nonopress" / "numba"
    assert list(cache.rglob("*.nbi")), "the compiled solver is cached in the user's folder"
    # the default word list too: the first fill reads it, builds nothing (words/listcache.py)
    lists = list((site / "words" / "wordlists_seed").glob("default-*.npz"))
    assert len(lists) == 1, "the install ships the default word list's cache entry"

    # 2. install for development in the same environment, then the command still works
    second = _run([*pip, "-e", ".[test]"], source, env)
    assert second.returncode == 0, second.stderr[-3000:]
    assert not (site / "grader").exists()  # nothing left behind to shadow the new install
    version = _run([str(bin_dir / "nonopress"), "--version"], tmp_path, env)
    assert version.returncode == 0, version.stderr[-3000:]
    assert version.stdout.strip() == "nonopress 0.1.0"
    info = _run([str(bin_dir / "nonopress"), "info", library[0]], tmp_path, env)
    assert info.returncode == 0 and "Bicycle" in info.stdout, info.stderr[-3000:]
