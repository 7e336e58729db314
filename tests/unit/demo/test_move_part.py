from pathlib import Path

from pycontrol.cluster import daemons, storm_conf
from pycontrol.cluster.layout import Layout
from pycontrol.demo import figure, move_part
from pycontrol.demo.options import DemoOptions
from tests.unit.demo.test_move_table import sec


def _everything(spec):
    layout = Layout(spec.home)
    nodes = [storm_conf.node_conf(spec, layout, n) for n in spec.node_specs]
    control = storm_conf.control_conf(spec, layout)
    commands = daemons.all_commands(spec, layout, "java", Path("/dist"))
    return nodes, control, commands


def test_the_stock_way_loads_no_agent_in_any_jvm_but_follows_plans_through_the_scheduler_plugin():
    spec = move_part.cluster_spec(Path("/tmp/demo"), "stock", DemoOptions(network="loopback"))
    assert spec.migration is False
    nodes, control, commands = _everything(spec)
    assert not any("javaagent" in a for c in commands for a in c.argv)          # nimbus, ui, supervisors, zk
    for conf in [*nodes, control]:
        assert "javaagent" not in conf["worker.childopts"]                       # workers
        assert "javaagent" not in str(conf.get("supervisor.childopts", ""))
        assert not any(k.startswith("nonstop.migration") for k in conf)
    assert control["storm.scheduler"] == storm_conf.NONSTOP_SCHEDULER


def test_the_nonstop_way_loads_the_agent_everywhere():
    spec = move_part.cluster_spec(Path("/tmp/demo"), "nonstop", DemoOptions(network="netns"))
    nodes, control, commands = _everything(spec)
    assert all(any("-javaagent:" in a for a in c.argv) for c in commands if c.role in ("nimbus", "supervisor"))
    assert all("-javaagent:" in conf["worker.childopts"] for conf in nodes)
    assert control["nimbus.monitor.freq.secs"] == 1 and nodes[0]["nonstop.migration.lazy.kill.ms"] == 2000


def test_the_ways_share_the_port_base_and_get_homes_of_their_own():
    opts = DemoOptions(port_base=24000, network="loopback")
    a, b = (move_part.cluster_spec(Path("/tmp/demo"), w, opts) for w in ("stock", "nonstop"))
    assert a.zk_port == b.zk_port == 24000 and a.home != b.home


def test_timelines_count_seconds_from_the_move_and_leave_latency_out_without_acks():
    r = move_part.SegmentResult("stock", 1, 100, {"t0_ms": 105_400}, ["127.0.0.11:24101"],
                                rows=[sec(ts, 0 if ts == 106 else 10) for ts in range(100, 110)])
    (tl,) = move_part.timelines([r])
    assert tl["t"][0] == -5 and tl["t"][5] == 0
    assert tl["latency_p99_ms"][6] is None and tl["latency_p99_ms"][5] == 10.0


def test_the_figure_has_a_column_per_change_and_rebalance_last(tmp_path):
    tls = [{"way": w, "m": m, "t": [-1, 0, 1], "acked": [10, 0, 10], "latency_p99_ms": [5.0, None, 9.0]}
           for w, m in (("stock", 4), ("nonstop", 1), ("stock", 1), ("stock rebalance", None), ("nonstop", 4))]
    cols = figure.columns(tls)
    assert [c[0] for c in cols] == ["1 executor moved", "4 executors moved", "Storm's rebalance"]
    assert [t["way"] for t in cols[0][1]] == ["nonstop", "stock"]
    path = figure.draw(tls, 10, tmp_path / "move.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_table_rows_say_whether_each_change_was_applied():
    rows = [sec(ts, 10) for ts in range(100, 110)]
    ok = move_part.SegmentResult("nonstop", 1, 100, {"t0_ms": 105_000, "decision": "applied"}, [], rows=rows)
    rb = move_part.SegmentResult("stock rebalance", None, 100, {"t0_ms": 105_000, "decision": "success"}, [], rows=rows)
    no = move_part.SegmentResult("stock", 1, 100, {"t0_ms": 105_000, "decision": "none", "reason": "no decision"}, [],
                                 rows=rows)
    got = move_part.table_rows([ok, rb, no], DemoOptions(rate=10, after_s=5))
    assert [(r["applied"], r["not_applied_reason"]) for r in got] == [(True, None), (True, None),
                                                                      (False, "none: no decision")]


def test_the_figure_draws_a_change_without_a_single_ack(tmp_path):
    tls = [{"way": "stock", "m": 1, "t": [-1, 0, 1], "acked": [10, 9, 10], "latency_p99_ms": [5.0, 7.0, 9.0]},
           {"way": "stock rebalance", "m": None, "t": [-1, 0, 1], "acked": [0, 0, 0],
            "latency_p99_ms": [None, None, None]}]
    assert figure.draw(tls, 10, tmp_path / "move.png").stat().st_size > 0
