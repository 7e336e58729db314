"""The demo's part 1, shortened (one executor moved each way, short windows), on its own real local
clusters one after the other: the stock way (no agent in any JVM) relaunches a worker, the nonstop way
moves the executor live without restarting one and without a failed tuple; the report renders in
headless Chromium with its figure loaded and its table filled. Part 2 is tested with its own module."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pycontrol.cluster import network
from pycontrol.demo import figure, move_part, report_html, run_demo
from pycontrol.demo.options import DemoOptions
from tests.conftest import TEST_PORT_BASE, assert_nothing_left
from tests.integration.report_browser import check_report

PORT_BASE = TEST_PORT_BASE + 4200


def test_the_report_renders_with_its_figure_and_tables_in_chromium(tmp_path):
    tls = [{"way": w, "m": 1, "t": [-2, -1, 0, 1, 2], "acked": [300, 300, a, 300, 300],
            "latency_p99_ms": [20.0, 20.0, None if a == 0 else 30.0, 900.0, 25.0]}
           for w, a in (("stock", 0), ("nonstop", 300))]
    figure.draw(tls, 300, tmp_path / "move.png")
    row = {"way": "stock", "m": 1, "low_s": 1, "longest_gap_s": 1, "latency_max_ms": 950.0, "latency_p99_ms": 900.0,
           "failed": 3, "replayed": 3, "worker_restarts": 1}
    page = tmp_path / "report.html"
    page.write_text(report_html.render({"move": {"table": [row], "figures": ["move.png"], "rate": 300,
                                                 "after_s": 30, "commands": ["./nonstop demo --part move"]}}))
    dom = check_report(page, ("move-table",))
    assert 'data-ok="1"' in dom and (tmp_path / "report-screenshot.png").stat().st_size > 0


@pytest.mark.slow
def test_one_move_two_ways_stock_restarts_a_worker_nonstop_does_not(tmp_path):
    lines: list[str] = []
    opts = DemoOptions(part="move", rate=200, before_s=5, after_s=15, moves=(1,), rebalance=False, port_base=PORT_BASE)
    doc = run_demo(tmp_path / "home", opts, tmp_path / "out", lines.append)
    move = doc["move"]
    census = move["agent_census"]
    assert census["stock"]["jvms"] >= 5 and census["stock"]["with_agent"] == 0, census
    assert census["nonstop"]["with_agent"] >= 4, census     # nimbus, 2 supervisors, workers
    by_way = {r["way"]: r for r in move["table"]}
    decisions = {s["way"]: s["move"]["decision"] for s in move["segments"]}
    assert decisions == {"stock": "applied", "nonstop": "applied"}, move["segments"]
    assert by_way["stock"]["worker_restarts"] >= 1, move["segments"]
    assert by_way["nonstop"]["worker_restarts"] == 0, move["segments"]
    assert by_way["nonstop"]["failed"] == 0
    check_report(tmp_path / "out" / "report.html", ("move-table",))
    assert lines[-1] == f"report: {(tmp_path / 'out' / 'report.html').resolve()}"
    assert any(line.startswith("[stock: warming up]") for line in lines)          # the live display
    assert any(line.startswith("[nonstop M=1: after the move]") and "acked" in line for line in lines)
    # The default network (auto) was made concrete, said, and each way's cluster left nothing behind.
    assert doc["network"]["asked"] == "auto" and doc["network"]["why"] in lines
    ran = replace(opts, network=doc["network"]["used"])
    for way in ("stock", "nonstop"):
        assert_nothing_left(move_part.cluster_spec(tmp_path / "home", way, ran))
        assert network.leftovers(move_part.cluster_spec(tmp_path / "home", way, ran)) == []
