import json
from pathlib import Path

import pytest

from pycontrol.controller import snapshot

VECTOR = json.loads((Path(__file__).resolve().parents[2] / "vectors" / "otd_shares" / "cases.json").read_text())


def test_the_saturated_share_is_the_shared_one():
    assert snapshot.SATURATED_SHARE == VECTOR["saturated_share"]


@pytest.mark.parametrize("case", VECTOR["cases"], ids=lambda c: c["name"])
def test_every_shared_case_gives_the_expected_shares(case):
    workers = case["workers"]
    loads = {w: x["load_cores"] for w, x in workers.items() if x["load_cores"] is not None}
    nodes = {h: (n["cpu_count"], n["busy_cores"] if case["count_background"] else None)
             for h, n in case["nodes"].items()}
    got = snapshot.shares_of({w: w.rpartition(":")[0] for w in workers}, loads, nodes)
    assert got == pytest.approx(case["shares"], abs=1e-4)
