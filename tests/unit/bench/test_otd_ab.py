"""The OTD A/B benchmark's pure parts: run order, realised share, the summary across repetitions."""

import pytest

from pycontrol.bench.otd import ab
from pycontrol.errors import UserError


def test_the_order_rotates_so_each_kind_takes_each_position():
    orders = [ab.order(i) for i in range(3)]
    assert orders[0] == ["otd", "control", "ceiling"]
    for pos in range(3):
        assert {o[pos] for o in orders} == set(ab.KINDS)
    assert ab.order(3) == ab.order(0)


def test_realized_share_is_the_fraction_of_the_achievable_gain():
    assert ab.realized_share(900, 600, 1000) == pytest.approx(0.75)
    assert ab.realized_share(600, 600, 1000) == 0
    assert ab.realized_share(500, 600, 1000) == pytest.approx(-0.25)
    assert ab.realized_share(900, 600, 600) is None
    assert ab.realized_share(900, 700, 650) is None


def test_the_summary_counts_every_repetition_and_says_where_the_share_is_undefined():
    doc = ab.summarize_runs([{"otd": 900, "control": 600, "ceiling": 1000},
                             {"otd": 800, "control": 700, "ceiling": 900},
                             {"otd": 700, "control": 700, "ceiling": 650}])
    assert [r["realized_share"] for r in doc["repetitions"]] == [pytest.approx(0.75), pytest.approx(0.5), None]
    assert doc["summary"]["realized_share"]["n"] == 2
    assert doc["summary"]["otd"]["n"] == 3 and doc["summary"]["otd"]["median"] == 800
    assert doc["summary"]["gain_pct"]["median"] == pytest.approx(100 * 100 / 700, abs=1e-3)
    assert doc["share_undefined_in"] == 1
    lines = ab.summary_lines(doc)
    assert "n = 3 repetitions" in lines[0]
    assert any("did not beat the control in 1 repetition" in line for line in lines)
    with pytest.raises(UserError):
        ab.summarize_runs([])


def test_the_ceiling_is_the_control_started_balanced():
    ceiling, control = ab.experiment("ceiling", 20, 60), ab.experiment("control", 20, 60)
    assert ceiling.balance_component == "split" and control.balance_component is None
    assert ceiling.second_policy == control.second_policy == "plan-only"
    assert ab.experiment("otd", 20, 60).second_policy == "otd"
    with pytest.raises(UserError):
        ab.experiment("nothing", 20, 60)


def test_the_cpu_summary_says_what_it_measures():
    doc = ab.summarize_runs([{"otd": 1.5, "control": 1.0, "ceiling": 1.6}])
    lines = ab.summary_lines(doc, "mean worker CPU, cores")
    assert lines[0].startswith("OTD vs control vs balanced ceiling, mean worker CPU, cores")
    assert doc["summary"]["gain_pct"]["median"] == pytest.approx(50.0)
    assert doc["repetitions"][0]["realized_share"] == pytest.approx(0.5 / 0.6)


def test_the_comm_design_runs_otd_against_its_control_only_and_measures_the_second_half():
    assert [ab.order(i, "comm") for i in range(3)] == [["otd", "control"], ["control", "otd"], ["otd", "control"]]
    otd, control = ab.experiment("otd", 60, 240, "comm"), ab.experiment("control", 60, 240, "comm")
    assert otd.workload == control.workload == "wordcount-java"
    assert (otd.second_policy, control.second_policy) == ("otd", "plan-only")
    assert otd.default_s == 60 and otd.otd_s == 240
    with pytest.raises(UserError, match="ceiling"):
        ab.experiment("ceiling", 60, 240, "comm")
    with pytest.raises(UserError, match="--part"):
        ab.order(0, "memory")
    assert ab.COMM.measures[0] == "inter_node_share" and ab.COMM.skip_share == 0.5


def test_a_summary_without_a_ceiling_has_the_gain_and_no_share():
    doc = ab.summarize_runs([{"otd": 0.0, "control": 0.36}, {"otd": 0.05, "control": 0.37}])
    assert "ceiling" not in doc["summary"] and doc["share_undefined_in"] == 0
    assert doc["summary"]["gain_pct"]["median"] == pytest.approx((-100.0 + 100 * (0.05 - 0.37) / 0.37) / 2)
    lines = ab.summary_lines(doc, "inter-node tuple share")
    assert lines[0].startswith("OTD vs no-move control, inter-node tuple share")
    assert not any("realized_share" in line or "ceiling" in line for line in lines)
