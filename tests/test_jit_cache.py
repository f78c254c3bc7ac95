"""The compiled solver's on-disk cache is dropped when any compiled module's source changes."""

from __future__ import annotations

from pathlib import Path

from grader.solver.jit_cache import COMPILED_MODULES, STAMP_NAME, drop_stale_entries


def _package(folder: Path) -> Path:
    for name in COMPILED_MODULES:
        (folder / f"{name}.py").write_text(f"# {name}\n")
    cache = folder / "__pycache__"
    cache.mkdir()
    return cache


def _entries(cache: Path) -> list[str]:
    names = ["kernels.solve-10.py311.nbi", "cdcl.run-40.py311.1.nbc", "search.x-1.py311.nbi"]
    for name in names:
        (cache / name).write_bytes(b"compiled")
    return names


def test_an_edit_to_one_module_drops_the_entries_of_all_compiled_modules(tmp_path: Path) -> None:
    cache = _package(tmp_path)
    assert drop_stale_entries(tmp_path)  # no stamp yet: whatever is there is of unknown age
    assert (cache / STAMP_NAME).is_file()
    kept = _entries(cache)
    assert not drop_stale_entries(tmp_path)  # unchanged sources: the cache stays
    assert all((cache / name).exists() for name in kept)
    (tmp_path / "kernels.py").write_text("# kernels, edited\n")
    assert drop_stale_entries(tmp_path)
    # cdcl.py did not change, but its compiled code calls the edited kernels
    assert not (cache / "kernels.solve-10.py311.nbi").exists()
    assert not (cache / "cdcl.run-40.py311.1.nbc").exists()
    assert (cache / "search.x-1.py311.nbi").exists()  # not a compiled module: left alone
    assert not drop_stale_entries(tmp_path)


def test_an_unreadable_package_is_left_alone(tmp_path: Path) -> None:
    assert not drop_stale_entries(tmp_path / "missing")
