"""ONE Spark session for every Spark test of the trace pipeline (session start costs 5-8 s).

Settings follow docs/ecosystem.md §3: local[2], no UI, loopback only, 2 shuffle
partitions, no adaptive execution on tiny data. Tests that use it are marked `spark`.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

DATA = Path(__file__).with_name("data")

TEST_CONF = {
    "spark.sql.shuffle.partitions": "2",
    "spark.default.parallelism": "2",
    "spark.sql.adaptive.enabled": "false",
    "spark.driver.memory": "1g",
}


@pytest.fixture(scope="session")
def spark():
    from pycontrol.traces.session import build_session

    session = build_session("local[2]", app_name="pycontrol-trace-tests", progress=False, conf=TEST_CONF)
    try:
        yield session
    finally:
        session.stop()


def replay_docs(path: Path) -> list[dict]:
    """The replay file's lines as raw JSON objects (no validation: tests check the format)."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def csv_rows(path: Path) -> list[list[str]]:
    import csv

    with gzip.open(path, "rt", encoding="utf-8", newline="") as f:
        return list(csv.reader(f))
