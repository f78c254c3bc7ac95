"""Fill crossword grids, one ``nonopress fill`` process a grid, and time each whole process.

    python bench/bench_fill.py [GRID_DIR ...] [--words FILE] [--timeout 10] [--seed 0]
                               [--quality] [--only TEXT] [--markdown]

GRID_DIRs hold one ``.txt`` grid a file; default: the 72 benchmark grids
(``../shared/crossword-grids/txt`` beside the repository) and the 30 American-style 15x15
grids of ``bench/data/american-15`` (made by ``bench/make_american_grids.py``, each proved
fillable from ``wamerican``). Each grid is filled by a fresh ``python -m nonopress fill
GRID --json`` (the list cache warm, as on any run after the first), and its wall and CPU
time are measured from outside: start-up, list load, search and output. Goal: every grid
filled, each under 1 s.

The fills are read against the standard dictionaries (Debian's ``wamerican`` +
``wbritish``): entries in neither, proper nouns (in them only capitalised) and blocklisted
words, each as a share of all entries filled.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from words.blocklist import default_blocklist  # noqa: E402
from words.wordlist import normalise  # noqa: E402

DEFAULT_DIRS = (ROOT.parent / "shared" / "crossword-grids" / "txt",
                ROOT / "bench" / "data" / "american-15")
DICTIONARIES = (Path("/usr/share/dict/american-english"),
                Path("/usr/share/dict/british-english"))
GOAL_S = 1.0


def dictionary_forms() -> tuple[set[str], set[str]]:
    """(lower-case entries, capitalised entries) of the standard dictionaries."""
    lower: set[str] = set()
    upper: set[str] = set()
    for path in DICTIONARIES:
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            word = None if line.endswith("'s") else normalise(line)
            if word is not None:
                (lower if line[:1].islower() else upper).add(word)
    return lower, upper


def fill_once(path: Path, args: argparse.Namespace) -> tuple[dict[str, object], float, float]:
    """The fill's JSON record, its wall time and its CPU time (user + system)."""
    command = [sys.executable, "-m", "nonopress", "fill", str(path), "--json",
               "--seed", str(args.seed), "--timeout", str(args.timeout)]
    if args.words:
        command += ["--words", args.words]
    if args.quality:
        command.append("--quality")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    # bytecode written and read as an installed package's is (pip compiles it): a shell
    # with PYTHONDONTWRITEBYTECODE would otherwise compile ~50 modules in every process
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run(command, capture_output=True, text=True, check=False,
                          env={**env, "PYTHONPATH": str(ROOT)})
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = done.stdout.strip().splitlines()
    try:
        record: dict[str, object] = json.loads(lines[-1])
    except (IndexError, json.JSONDecodeError):
        record = {"status": "error", "reason": done.stderr.strip()[-200:]}
    return record, wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", default=[str(d) for d in DEFAULT_DIRS])
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--words", help="a word list file instead of the default list")
    parser.add_argument("--only", help="grids whose name contains this")
    parser.add_argument("--quality", action="store_true", help="fill --quality")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args()

    paths = [p for folder in args.folders for p in sorted(Path(folder).glob("*.txt"))]
    if args.only:
        paths = [p for p in paths if args.only in p.stem]
    if not paths:
        print(f"no .txt grids in {', '.join(args.folders)}", file=sys.stderr)
        return 2
    # one fill first: the list cache and the compiled kernels are warm for every timing
    fill_once(paths[0], args)
    lower, upper = dictionary_forms()
    blocked = default_blocklist()
    print(f"# words: {args.words or 'the default list'}; seed {args.seed}; timeout "
          f"{args.timeout:g} s; whole process, cache warm")
    header = ["grid", "size", "slots", "result", "wall_s", "cpu_s", "nodes", "restarts",
              "score", "min"]
    print("| " + " | ".join(header) + " |" if args.markdown else "\t".join(header))
    if args.markdown:
        print("|" + "---|" * len(header))
    walls: list[float] = []
    cpus: list[float] = []
    outcomes: dict[str, int] = {}
    entries: list[str] = []
    for path in paths:
        record, wall, cpu = fill_once(path, args)
        status = str(record.get("status"))
        walls.append(wall)
        cpus.append(cpu)
        outcomes[status] = outcomes.get(status, 0) + 1
        filled = status == "filled"
        if filled:
            entries += [str(w) for w in dict(record["entries"]).values()]  # type: ignore[call-overload]
        row = [path.stem, str(record.get("size", "-")), str(record.get("slots", "-")), status,
               f"{wall:.3f}", f"{cpu:.3f}", str(record.get("nodes", "-")),
               str(record.get("restarts", "-")),
               f"{record['score']:.1f}" if filled else "-",
               f"{record['min_score']:.0f}" if filled else "-"]
        print("| " + " | ".join(row) + " |" if args.markdown else "\t".join(row), flush=True)
        if not filled:
            print(f"#   {path.stem}: {record.get('reason', '')}")
    fast_wall = sum(1 for t in walls if t < GOAL_S)
    fast_cpu = sum(1 for t in cpus if t < GOAL_S)
    print(f"# {len(paths)} grids: " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items()))
          + f"; under {GOAL_S:g} s: wall {fast_wall}/{len(paths)}, cpu {fast_cpu}/{len(paths)};"
          f" median wall {statistics.median(walls):.3f} s, cpu {statistics.median(cpus):.3f} s;"
          f" max wall {max(walls):.3f} s, cpu {max(cpus):.3f} s")
    if entries and lower:
        outside = sum(1 for w in entries if w not in lower and w not in upper)
        proper = sum(1 for w in entries if w not in lower and w in upper)
        bad = sum(1 for w in entries if w in blocked)
        print(f"# {len(entries)} entries filled: outside wamerican+wbritish "
              f"{outside / len(entries):.1%}, proper nouns {proper / len(entries):.1%}, "
              f"blocklisted {bad}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
