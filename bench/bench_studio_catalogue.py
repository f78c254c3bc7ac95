"""The studio's library over a catalogue: ``CatalogueSource.entries`` (what ``GET
/api/puzzles`` runs: ``find`` with the page's filters, ``duplicates``, last printings) over a
catalogue of ``--rows`` graded rows, written as ``bench_catalogue.py`` writes them.

    python bench/bench_studio_catalogue.py --rows 10000 --repeat 11
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_catalogue import fill_rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=11)
    parser.add_argument("--db", help="the catalogue (default: a new SQLite file); its "
                        "puzzles are replaced")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    from nonopress.catalogue import Filters, open_catalogue
    from nonopress.studio.catalogue_source import CatalogueSource
    from nonopress.studio.library import MAX_FILES

    location = fill_rows(args.db, args.rows, args.seed)
    source = CatalogueSource(open_catalogue(location))
    questions = {
        "(the first page: everything)": Filters(limit=MAX_FILES),
        "level=medium&size=15x15..25x25&tag=animals": Filters(
            levels=("medium",), widths=(15, 25), heights=(15, 25), tags=("animals",),
            limit=MAX_FILES),
        "unused_for=12": Filters(unused_for=12, limit=MAX_FILES),
    }
    for name, filters in questions.items():
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            found = source.entries(filters)
            times.append(time.perf_counter() - start)
        print(f"studio library {name} over {args.rows} rows ({source.catalogue.dialect}): "
              f"{len(found)} listed, median {statistics.median(times) * 1000:.1f} ms of "
              f"{args.repeat}")
    source.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
