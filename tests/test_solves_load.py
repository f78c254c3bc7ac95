"""The collector under load on loopback, bounded: ``nonopress collect`` with two workers
over PostgreSQL, records from concurrent clients (each from its own loopback address), some
retried; then hostile requests. No timing is asserted (bench/bench_collect.py measures the
latency at full size: 10,000 records from 50 clients)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
POSTGRES_URL = os.environ.get("NONOPRESS_TEST_POSTGRES_URL", "").strip()


@pytest.fixture(scope="module")
def bench() -> object:
    sys.path.insert(0, str(ROOT / "bench"))
    import bench_collect

    return bench_collect


def test_records_from_concurrent_clients_are_all_stored_once_and_hostile_ones_refused(
        bench: object) -> None:
    if not POSTGRES_URL:
        message = "NONOPRESS_TEST_POSTGRES_URL is not set (.ci/run starts a scratch PostgreSQL)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    figures = bench.run(POSTGRES_URL, records=1500, clients=25,  # type: ignore[attr-defined]
                        workers=2, hostile=60, retries=0.2, timeout=240.0)
    assert figures["failures"] == []
    assert figures["stored"] == 1500
    assert (figures["lost"], figures["stored_twice"], figures["strangers"]) == (0, 0, 0)
    assert figures["requests"] > 1500  # retries and resends were sent, and stored once
    assert figures["statuses"].get(201) == 1500
    assert (figures["hostile_refused"], figures["hostile_wrong"]) == (60, [])
