import json
from pathlib import Path

import pytest

from pycontrol.controller import snapshot
from tests.unit.controller.fakes import model

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


@pytest.mark.parametrize("case", VECTOR["cases"], ids=lambda c: c["name"])
def test_a_live_model_gives_the_same_shares(case):
    workers = case["workers"]
    placement = {e.replace(",", "-"): w for w, x in workers.items() for e in x["executors"]}
    m = model(placement, worker_load={w: x["load_cores"] for w, x in workers.items() if x["load_cores"] is not None})
    for host, n in case["nodes"].items():
        m.nodes[host].cpu_count, m.nodes[host].busy_cores = n["cpu_count"], n["busy_cores"]
    got = snapshot.worker_shares(m, count_background=case["count_background"])
    assert got == pytest.approx(case["shares"], abs=1e-4)
