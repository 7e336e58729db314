import json
from pathlib import Path

import pytest

import pycontrol.demo as demo
from pycontrol.demo.options import DemoOptions
from pycontrol.errors import UserError

ROW = {"way": "stock", "m": 1, "low_s": 4, "acked_short": 900, "longest_gap_s": 3, "latency_max_ms": 2100.0, "latency_p99_ms": 1900.0,
       "failed": 12, "replayed": 12, "worker_restarts": 2}


class FakeControllerPart:
    """Stands for pycontrol.bench.otd.controlled.run_controller_part (same signature)."""

    def __init__(self, fail=False):
        self.calls, self.fail = [], fail

    def __call__(self, home: Path, out_dir: Path, echo, *, port_base: int, warmup_s: float, phase_s: float,
                 network: str = "loopback", keep: bool = False) -> dict:
        self.calls.append({"home": home, "port_base": port_base, "warmup_s": warmup_s, "phase_s": phase_s,
                           "network": network, "keep": keep})
        if self.fail:
            raise UserError("timed out after 900 s waiting for acked tuples")
        (out_dir / "otd.png").write_bytes(b"png")
        doc = {"summary_lines": ["OTD did not beat the control"], "comparison": [], "moves": [],
               "figures": [str(out_dir / "otd.png")], "commands": ["pycontrol bench otd --control"]}
        (out_dir / "controller.json").write_text(json.dumps(doc))
        return doc


@pytest.fixture
def no_clusters(monkeypatch):
    """Part 1's runner replaced; the environment check sees free ports."""
    ran = []

    def move(home, opts, out_dir, echo, keep=False):
        ran.append(home)
        return {"table": [ROW], "summary_lines": demo.move_summary_lines([ROW]), "figures": ["move.png"],
                "commands": demo.move_commands(opts), "rate": opts.rate, "after_s": opts.after_s}

    monkeypatch.setattr(demo, "run_move_part", move)
    monkeypatch.setattr(demo, "check_environment", lambda home, opts: None)
    monkeypatch.setattr(demo.network, "netns_unavailable", lambda: None)   # as root: namespaces can be made
    return ran


def test_all_runs_part_one_then_the_controller_part_and_writes_the_report(tmp_path, no_clusters):
    fake, lines = FakeControllerPart(), []
    doc = demo.run_demo(tmp_path / "home", DemoOptions(port_base=24000, warmup_s=10, phase_s=40), tmp_path / "out",
                        lines.append, controller_part=fake)
    assert no_clusters == [tmp_path / "home"]
    assert fake.calls == [{"home": tmp_path / "home" / "controller", "port_base": 24000, "warmup_s": 10,
                           "phase_s": 40, "network": "netns", "keep": False}]
    assert doc["controller"]["figures"] == ["otd.png"]           # relative to the report
    report = (tmp_path / "out" / "report.html").read_text()
    assert 'src="otd.png"' in report and 'src="move.png"' in report
    assert json.loads((tmp_path / "out" / "demo.json").read_text())["move"]["table"] == [ROW]
    assert lines[-1] == f"report: {(tmp_path / 'out' / 'report.html').resolve()}"
    assert "OTD did not beat the control" in lines


def test_auto_network_is_netns_where_namespaces_can_be_made_else_loopback_and_says_why(tmp_path, no_clusters):
    fake, lines = FakeControllerPart(), []
    doc = demo.run_demo(tmp_path, DemoOptions(part="controller"), tmp_path / "out", lines.append,
                        controller_part=fake, netns_unavailable=lambda: "network namespaces need root (CAP_NET_ADMIN)")
    assert fake.calls[0]["network"] == "loopback"
    assert doc["network"] == {"asked": "auto", "used": "loopback",
                              "why": "network: loopback (auto: network namespaces need root (CAP_NET_ADMIN))"}
    assert doc["network"]["why"] in lines
    doc = demo.run_demo(tmp_path, DemoOptions(part="controller", network="loopback"), tmp_path / "out2",
                        lines.append, controller_part=fake, netns_unavailable=lambda: None)
    assert fake.calls[1]["network"] == "loopback" and doc["network"]["used"] == "loopback"
    doc = demo.run_demo(tmp_path, DemoOptions(part="controller"), tmp_path / "out3", lines.append,
                        controller_part=fake, netns_unavailable=lambda: None)
    assert fake.calls[2]["network"] == "netns" and doc["network"]["asked"] == "auto"


def test_one_part_alone(tmp_path, no_clusters):
    fake = FakeControllerPart()
    doc = demo.run_demo(tmp_path, DemoOptions(part="move"), tmp_path / "out", lambda m: None, controller_part=fake)
    assert fake.calls == [] and "controller" not in doc
    doc = demo.run_demo(tmp_path, DemoOptions(part="controller"), tmp_path / "out2", lambda m: None,
                        controller_part=fake)
    assert len(no_clusters) == 1 and "move" not in doc and len(fake.calls) == 1


def test_a_failed_part_is_reported_the_other_still_runs_and_the_exit_is_non_zero(tmp_path, no_clusters):
    with pytest.raises(UserError, match="controller part did not complete"):
        demo.run_demo(tmp_path, DemoOptions(), tmp_path / "out", lambda m: None,
                      controller_part=FakeControllerPart(fail=True))
    report = (tmp_path / "out" / "report.html").read_text()
    assert "did not complete: timed out after 900 s waiting for acked tuples" in report and "move.png" in report


def test_part_one_lines_say_what_each_way_cost():
    (line,) = demo.move_summary_lines([ROW])
    assert line == ("stock, 1 executor moved: 2 worker restarts, 4 s below 40 % of the offered rate (900 tuples acked "
                    "short of it), longest gap between acks 3 s, p99 latency 1900 ms, 12 failed / 12 replayed tuples")
    (line,) = demo.move_summary_lines([{**ROW, "m": None, "way": "stock rebalance", "latency_p99_ms": None,
                                        "worker_restarts": 1}])
    assert line.startswith("stock rebalance, Storm's rebalance: 1 worker restart, ") and "no acks" in line


def test_the_commands_reproduce_the_choices():
    (cmd,) = demo.move_commands(DemoOptions(rate=200, moves=(1,), rebalance=True, port_base=24000))
    assert cmd == ("./nonstop demo --part move --rate 200 --before 5 --after 30 --moves 1 --rebalance "
                   "--port-base 24000 --network auto")
    (cmd,) = demo.move_commands(DemoOptions())
    assert cmd == "./nonstop demo --part move --rate 300 --before 5 --after 30 --moves 1,4 --port-base 17000 --network auto"


def test_a_change_that_was_not_applied_says_so_instead_of_showing_a_painless_move():
    (line,) = demo.move_summary_lines([{**ROW, "applied": False, "not_applied_reason": "none: no decision after 20 s"}])
    assert line == "stock, 1 executor moved: NOT applied (none: no decision after 20 s); nothing to compare"


def test_a_change_made_before_the_workload_recovered_is_flagged():
    (line,) = demo.move_summary_lines([{**ROW, "recovered_before": False}])
    assert line.endswith("12 failed / 12 replayed tuples (made before the workload had recovered from the previous change)")


def test_a_gap_still_open_at_the_window_end_is_said():
    (line,) = demo.move_summary_lines([{**ROW, "longest_gap_s": 28, "acking_at_end": False}])
    assert "longest gap between acks 28 s (still none at the window end), " in line


def test_keep_leaves_only_the_demos_last_cluster_up(tmp_path, monkeypatch):
    kept = []

    def way(home, name, opts, echo, keep=False):
        kept.append((name, keep))
        return [], {"jvms": 9, "with_agent": 0}

    monkeypatch.setattr(demo.move_part, "run_way", way)
    monkeypatch.setattr(demo.figure, "draw", lambda *a: None)
    demo.run_move_part(tmp_path, DemoOptions(part="move"), tmp_path, lambda m: None, keep=True)
    assert kept == [("stock", False), ("nonstop", True)]
    kept.clear()
    demo.run_move_part(tmp_path, DemoOptions(part="all"), tmp_path, lambda m: None, keep=True)
    assert kept == [("stock", False), ("nonstop", False)]       # part 2 needs the ports next
