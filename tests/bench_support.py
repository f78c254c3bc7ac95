"""The benches' scripts, loaded as modules for the tests that check them (bench/ is not a
package: its scripts run from the command line)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[1] / "bench"


def bench_module(name: str) -> ModuleType:
    """``bench/NAME.py`` as the module ``NAME``, loaded once: registered in ``sys.modules``
    before it runs, since its dataclasses look their module up there, and the other bench
    scripts it imports by name are found beside it."""
    if name in sys.modules:
        return sys.modules[name]
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
