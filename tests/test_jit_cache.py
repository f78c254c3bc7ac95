"""The compiled solver's on-disk cache is dropped when any compiled module's source changes."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from grader.jit_cache import COMPILED_MODULES, STAMP_NAME, drop_stale_entries


def _package(folder: Path) -> Path:
    for name in COMPILED_MODULES:
        (folder / f"{name}.py").write_text(f"# {name}\n")
    cache = folder / "cache"
    cache.mkdir()
    return cache


def _entries(cache: Path) -> list[str]:
    names = ["kernels.solve-10.py311.nbi", "cdcl.run-40.py311.1.nbc", "search.x-1.py311.nbi"]
    for name in names:
        (cache / name).write_bytes(b"compiled")
    return names


def test_an_edit_to_one_module_drops_the_entries_of_all_compiled_modules(tmp_path: Path) -> None:
    cache = _package(tmp_path)
    assert drop_stale_entries(tmp_path, cache)  # no stamp yet: whatever is there is of unknown age
    assert (cache / STAMP_NAME).is_file()
    kept = _entries(cache)
    assert not drop_stale_entries(tmp_path, cache)  # unchanged sources: the cache stays
    assert all((cache / name).exists() for name in kept)
    (tmp_path / "kernels.py").write_text("# kernels, edited\n")
    assert drop_stale_entries(tmp_path, cache)
    # cdcl.py did not change, but its compiled code calls the edited kernels
    assert not (cache / "kernels.solve-10.py311.nbi").exists()
    assert not (cache / "cdcl.run-40.py311.1.nbc").exists()
    assert (cache / "search.x-1.py311.nbi").exists()  # not a compiled module: left alone
    assert not drop_stale_entries(tmp_path, cache)


def test_an_unreadable_package_is_left_alone(tmp_path: Path) -> None:
    assert not drop_stale_entries(tmp_path / "missing", tmp_path / "cache")


def test_the_cache_lives_in_the_user_cache_folder_not_in_the_package() -> None:
    import os

    import grader.solver.kernels  # configures numba's cache before its first kernel
    from grader.jit_cache import prepare_cache

    package = Path(grader.solver.kernels.__file__).resolve().parent
    folder = prepare_cache(package)
    assert package not in folder.parents
    assert Path(os.environ["NUMBA_CACHE_DIR"]) in folder.parents
    from numba.core import config

    assert Path(config.CACHE_DIR) in folder.parents
    # the locator numba picks for a compiled kernel points into that folder
    cache_path = Path(grader.solver.kernels.solve_line_into._cache._cache_path)
    assert cache_path == folder


def test_the_cache_folder_follows_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from grader.cachedir import ENVIRONMENT_VARIABLE, cache_dir, default_cache_dir

    monkeypatch.setenv(ENVIRONMENT_VARIABLE, str(tmp_path / "mine"))
    assert cache_dir("numba") == tmp_path / "mine" / "numba"
    assert (tmp_path / "mine" / "numba").is_dir()
    monkeypatch.delenv(ENVIRONMENT_VARIABLE)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    if sys.platform not in ("win32", "darwin"):
        assert default_cache_dir() == tmp_path / "xdg" / "nonopress"


def test_an_unwritable_cache_folder_falls_back_to_the_temporary_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from grader.cachedir import ENVIRONMENT_VARIABLE, cache_dir

    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, str(blocker / "cache"))
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path / "tmp"))
    folder = cache_dir("numba")
    assert folder.is_dir() and (tmp_path / "tmp") in folder.parents


def test_is_cold_until_every_compiled_module_has_an_index(tmp_path: Path) -> None:
    from grader.jit_cache import is_cold

    assert is_cold(tmp_path)
    for name in COMPILED_MODULES[:-1]:
        (tmp_path / f"{name}.f-1.py311.nbi").write_bytes(b"")
    assert is_cold(tmp_path)
    (tmp_path / f"{COMPILED_MODULES[-1]}.f-1.py311.nbi").write_bytes(b"")
    assert not is_cold(tmp_path)


def _packages(root: Path) -> Path:
    """A packages root with the seeded folders, each holding one compiled module."""
    from grader.jit_cache import SEEDED

    for folder in SEEDED:
        (root / folder).mkdir(parents=True)
        (root / folder / "kernels.py").write_text(f"# {folder}\n")
    return root


def test_a_seed_made_at_build_time_is_found_by_numba_after_the_install_moved_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from grader import jit_cache

    build = _packages(tmp_path / "build")
    build_cache = tmp_path / "build-cache"
    cached = jit_cache.cache_subfolder(build_cache, build / "grader/solver")
    cached.mkdir(parents=True)
    (cached / "kernels.solve-10.py311.nbi").write_bytes(b"index")
    (cached / "kernels.solve-10.py311.1.nbc").write_bytes(b"code")
    assert jit_cache.write_seed(build_cache, build) == 2

    # the install: the same files under another path, whose numba folder is another one
    import shutil

    installed = tmp_path / "site-packages"
    shutil.copytree(build, installed)
    user_cache = tmp_path / "user-cache"
    monkeypatch.setattr(jit_cache, "_planted", set())
    assert jit_cache.plant_seed(user_cache, installed)
    folder = jit_cache.cache_subfolder(user_cache, installed / "grader/solver")
    assert folder != cached
    assert (folder / "kernels.solve-10.py311.nbi").read_bytes() == b"index"
    assert (folder / "kernels.solve-10.py311.1.nbc").read_bytes() == b"code"
    # planted once: a later process reads two small files and copies nothing
    monkeypatch.setattr(jit_cache, "_planted", set())
    assert not jit_cache.plant_seed(user_cache, installed)


def test_a_seed_of_other_sources_is_not_planted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from grader import jit_cache

    packages = _packages(tmp_path / "site-packages")
    jit_cache.write_seed(tmp_path / "build-cache", packages)
    (packages / "words" / "kernels.py").write_text("# words, edited after the build\n")
    monkeypatch.setattr(jit_cache, "_planted", set())
    user_cache = tmp_path / "user-cache"
    assert jit_cache.plant_seed(user_cache, packages)  # the two unedited folders
    assert (jit_cache.cache_subfolder(user_cache, packages / "grader/solver")
            / jit_cache.SEED_STAMP).is_file()
    assert not jit_cache.cache_subfolder(user_cache, packages / "words").exists()


def test_a_process_plants_the_seed_of_the_kernels_it_loads_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # issue 58: the first fill copied the solver's 11 MB of kernels (200 files) as well
    from grader import jit_cache

    packages = _packages(tmp_path / "site-packages")
    jit_cache.write_seed(tmp_path / "build-cache", packages)
    monkeypatch.setattr(jit_cache, "PACKAGES_ROOT", str(packages))
    monkeypatch.setattr(jit_cache, "_planted", set())
    assert jit_cache.seeds_of(packages / "words") == ("words",)
    assert jit_cache.seeds_of(str(packages / "grader" / "colour")) == ("grader/colour",)
    assert jit_cache.seeds_of(tmp_path) == jit_cache.SEEDED  # not a seeded folder: all
    user_cache = tmp_path / "user-cache"

    def planted(folder: str) -> bool:
        return (jit_cache.cache_subfolder(user_cache, packages / folder)
                / jit_cache.SEED_STAMP).is_file()

    assert jit_cache.plant_seed(user_cache, packages, jit_cache.seeds_of(packages / "words"))
    assert planted("words") and not planted("grader/solver") and not planted("grader/colour")
    # a later need in the same process plants its own folder, and the first one only once
    assert jit_cache.plant_seed(user_cache, packages, ("grader/solver", "words"))
    assert planted("grader/solver") and not planted("grader/colour")
    assert not jit_cache.plant_seed(user_cache, packages, ("words",))


def test_the_seed_folder_is_named_as_numba_names_it() -> None:
    from numba.core.caching import _CacheLocator

    from grader import jit_cache

    sources = Path(jit_cache.__file__).resolve().parent / "solver"
    expected = _CacheLocator.get_suitable_cache_subpath(str(sources / "kernels.py"))
    assert jit_cache.cache_subfolder(Path("/root"), sources) == Path("/root") / expected
