"""Start-up: a command imports what it runs and nothing else (bench/bench_startup.py times it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from grader import formats
from grader.model import Puzzle

RING = [".###.", "#.#.#", "#####", "#.#.#", ".###."]


def run_and_list_modules(code: str) -> subprocess.CompletedProcess[str]:
    script = f"import sys; from nonopress.cli import main; code = main({code}); " \
        "print(' '.join(sorted(m for m in sys.modules if '.' not in m)), file=sys.stderr); " \
        "sys.exit(code)"
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)


def test_checking_an_easy_puzzle_loads_neither_numba_nor_layout(tmp_path: Path) -> None:
    path = tmp_path / "ring.non"
    path.write_bytes(formats.write(Puzzle.from_picture(RING), "non"))
    done = run_and_list_modules(repr(["check", str(path)]))
    assert done.returncode == 0, done.stderr
    assert "unique" in done.stdout
    loaded = done.stderr.split()
    assert "numba" not in loaded and "layout" not in loaded and "reportlab" not in loaded


def test_version_imports_no_command() -> None:
    done = run_and_list_modules("['--version']")
    assert done.returncode == 0 and "nonopress" in done.stdout
    assert not {"numba", "layout", "reportlab", "yaml", "PIL"} & set(done.stderr.split())


def test_help_still_lists_every_command() -> None:
    from nonopress.cli import COMMANDS

    done = subprocess.run([sys.executable, "-m", "nonopress", "--help"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0
    assert all(name in done.stdout for name in COMMANDS)


HEART = Path(__file__).resolve().parents[1] / "puzzles" / "heart.yaml"


def loaded_after(argv: list[str]) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """Run the command line in a fresh process; every module it loaded (full names)."""
    script = f"import sys; from nonopress.cli import main; code = main({argv!r}); " \
        "print(' '.join(sorted(sys.modules)), file=sys.stderr); sys.exit(code)"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)
    return done, set(done.stderr.splitlines()[-1].split()) if done.stderr else set()


@pytest.mark.parametrize("suffix", ["yaml", "non"])
def test_checking_a_small_puzzle_imports_no_numpy_and_one_format(tmp_path: Path,
                                                                   suffix: str) -> None:
    # issue 58: numpy's import alone was most of check's start-up; a puzzle line logic
    # settles is read and proved in plain Python, with its own format's reader alone
    path = tmp_path / f"heart.{suffix}"
    path.write_bytes(formats.write(formats.read(HEART), suffix))
    done, loaded = loaded_after(["check", str(path), "--json"])
    assert done.returncode == 0, done.stderr
    assert '"verdict": "unique"' in done.stdout and '".##.##."' in done.stdout
    assert not {"numpy", "numba", "reportlab", "jinja2", "PIL", "layout"} & loaded
    readers = {m for m in loaded if m.startswith("grader.formats.") and "._" not in m}
    assert readers == {f"grader.formats.{'yaml_format' if suffix == 'yaml' else suffix}"}



#: modules a check of a small, sound puzzle never uses, each a measurable share of its
#: start-up (issue 58): OpenSSL's hashes (a puzzle's key, the kernels' cache folder),
#: tempfile and random (the cache folder's fallback), json (--json and JSON files only),
#: pathlib (with urllib.parse and ipaddress behind it: os.path does for a suffix or a
#: folder), the diagnosis of a broken puzzle; numpy and numba above all
NOT_ON_CHECK_PATH = ("hashlib", "_hashlib", "tempfile", "random", "json", "pathlib",
                     "grader.diagnose", "numpy", "numba")


def test_checking_a_small_puzzle_runs_with_the_lazy_modules_unimportable() -> None:
    # made unimportable rather than looked for in sys.modules: an editable install's
    # finder imports pathlib before any of our code runs, and a later import must still fail
    script = (
        "import sys\n"
        f"for name in {NOT_ON_CHECK_PATH!r}: sys.modules[name] = None\n"
        "from nonopress.cli import main\n"
        f"sys.exit(main(['check', {str(HEART)!r}]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "\tunique\t" in done.stdout
