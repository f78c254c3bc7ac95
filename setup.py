"""The build step that compiles the solver's kernels, so that the first run does not.

Everything else about the package is in pyproject.toml. ``pip install .`` builds a wheel: after
copying the packages, this step runs every kernel once (the black-and-white solver's, the colour
solver's and the filler's warm-ups) in a fresh process with numba's cache in a temporary
folder, and ships what numba cached in ``grader/kernels_seed`` (see grader/jit_cache.py); then
it builds the default word list and ships its cache entry in ``words/wordlists_seed``
(words/listcache.py).

Skipped for an editable install (``pip install -e``: the checkout compiles on first use, as a
source edit would make it anyway) and when ``NONOPRESS_NO_PRECOMPILE=1``. A failure here
never fails the install: the kernels are then compiled on first use, as numba always could.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

from setuptools import setup
from setuptools.command.build_py import build_py

COMPILE = """
import sys
from pathlib import Path
from grader import jit_cache
from grader.solver import ensure_compiled
from grader.colour.solver import warm_up as colour_warm_up
from words.compiled_fill import warm_up as fill_warm_up
from words.listcache import write_seed as write_list_seed
ensure_compiled()
colour_warm_up()
fill_warm_up()
print(jit_cache.write_seed(jit_cache.numba_root(), Path(sys.argv[1])))
# the default word list, built once: the first fill reads it (words/listcache.py); without
# it the first fill builds the list, as it always could
try:
    write_list_seed(Path(sys.argv[1]) / "words" / "wordlists_seed")
except Exception as exc:
    print(f"the default word list was not built ahead: {exc}", file=sys.stderr)
"""


class BuildWithKernels(build_py):
    """build_py, then the kernels compiled into the built packages."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False) or os.environ.get("NONOPRESS_NO_PRECOMPILE"):
            return
        started = time.monotonic()
        root = os.path.abspath(self.build_lib)
        with tempfile.TemporaryDirectory(prefix="nonopress-kernels-") as cache:
            env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
            # before pip's own PYTHONPATH, not instead of it: pip's isolated build
            # environment (where numba is) reaches the child only through it
            paths = [root, *filter(None, [os.environ.get("PYTHONPATH")])]
            env.update(NUMBA_CACHE_DIR=cache, PYTHONPATH=os.pathsep.join(paths))
            done = subprocess.run([sys.executable, "-c", COMPILE, root], env=env, cwd=cache,
                                  capture_output=True, text=True, check=False)
        if done.returncode != 0:
            print("nonopress: the kernels were not compiled ahead (they will be on first use):\n"
                  + done.stderr[-2000:], file=sys.stderr)
            return
        print(f"nonopress: compiled the kernels ahead ({done.stdout.strip()} files, "
              f"{time.monotonic() - started:.0f} s)", file=sys.stderr)


setup(cmdclass={"build_py": BuildWithKernels})
