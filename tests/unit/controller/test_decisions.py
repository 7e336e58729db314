from pycontrol.controller.actions import Move
from pycontrol.controller.decisions import ControllerDecisionRecord, ZkDecisionSink, read_latest, record_line
from tests.unit.controller.fakes import FakeKazoo


def test_a_record_explains_itself_in_one_line_and_is_kept_per_topology():
    mv = Move("wc", "[3,3]", "h1:1", "h2:1", "otd case 3", 12.0)
    r = ControllerDecisionRecord(4, 100.0, "wc", "otd", "applied", "communication-bound; otd case 3: move [3,3]",
                       applied=[mv.to_dict()], suppressed=[{"move": mv.to_dict() | {"executor": "[4,4]"},
                                                            "reason": "cap of 1 move(s) per cycle"}],
                       predicted_gain=12.0, outcome="wc: applied (plan v3 applied)",
                       measured={"cycle": 2, "predicted_gain": 5.0, "measured_gain": 4.5})
    line = r.line()
    assert line.startswith("cycle 4 wc [otd]: applied: communication-bound; otd case 3")
    for part in ("move [3,3] h1:1 -> h2:1", "not [4,4] h1:1 -> h2:1: cap of 1 move(s) per cycle",
                 "predicted gain 12.0 t/s", "outcome wc: applied", "measured gain of cycle 2: 4.5 t/s (predicted 5.0)"):
        assert part in line
    kazoo = FakeKazoo()
    sink = ZkDecisionSink(kazoo, "/ctl/decisions")
    sink.publish([r])
    sink.publish([ControllerDecisionRecord(5, 105.0, "wc", "otd", "no-action", "balanced")])
    latest = read_latest(kazoo, "/ctl/decisions")
    assert list(latest) == ["wc"] and latest["wc"]["cycle"] == 5
    assert ControllerDecisionRecord(**latest["wc"]).kind == "no-action"


def test_a_broken_stored_record_is_shown_as_such_and_hides_no_other():
    kazoo = FakeKazoo()
    record = ControllerDecisionRecord(5, 105.0, "wc", "otd", "no-action", "balanced")
    ZkDecisionSink(kazoo, "/ctl/decisions").publish([record])
    kazoo.create("/ctl/decisions/bad", b"{nope")
    kazoo.create("/ctl/decisions/list", b"[1]")
    kazoo.create("/ctl/decisions/odd", b'{"cycle": 1}')
    latest = read_latest(kazoo, "/ctl/decisions")
    assert list(latest) == ["bad", "list", "odd", "wc"]
    assert record_line("bad", latest["bad"]).startswith("bad: unreadable decision record: /ctl/decisions/bad: ")
    assert record_line("list", latest["list"]) == "list: unreadable decision record: /ctl/decisions/list: not an object"
    assert record_line("odd", latest["odd"]) == "odd: unreadable decision record: not a decision record"
    assert record_line("wc", latest["wc"]).startswith("cycle 5 wc [otd]: no-action")
