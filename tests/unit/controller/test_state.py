import pytest

from pycontrol.controller.actions import Move
from pycontrol.controller.state_store import ControllerState


def test_an_action_is_pending_until_completed_then_remembered():
    mv = Move("wc", "[3,3]", "a:1", "b:2", "balance", 12.5)
    s = ControllerState().begin(cycle=7, moves=[mv], now=100.0)
    assert s.pending.moves == (mv,) and s.cycle == 7
    with pytest.raises(RuntimeError, match="still pending"):
        s.begin(8, [], 101.0)
    done = s.complete(now=103.0, hysteresis_s={"wc": 60}, outcome="applied")
    assert done.pending is None
    assert done.safety_for("wc").last_action_at == 103.0
    assert done.safety_for("wc").recent["wc/[3,3]"].from_slot == "a:1"
    assert done.log[-1]["outcome"] == "applied" and done.log[-1]["moves"][0]["to_slot"] == "b:2"


def test_documents_round_trip_including_a_pending_action():
    mv = Move("wc", "[3,3]", "a:1", "b:2")
    s = ControllerState(paused=True).begin(3, [mv], 1.0).complete(2.0, {"wc": 60}, "applied").begin(4, [mv], 5.0)
    assert ControllerState.from_doc(s.to_doc()) == s
    assert s.safety_for("wc").paused is True


def test_a_pending_move_saved_in_the_ui_spelling_loads_in_the_wire_spelling():
    mv = Move("wc", "[3,3]", "a:1", "b:2")
    doc = ControllerState().begin(3, [mv], 1.0).to_doc()
    doc["pending"]["moves"][0]["executor"] = "[3-3]"
    assert ControllerState.from_doc(doc).pending.moves == (mv,)
    doc["pending"]["moves"][0]["executor"] = "[3;3]"
    with pytest.raises(ValueError, match="bad executor id"):
        ControllerState.from_doc(doc)


def test_an_unknown_format_is_refused():
    with pytest.raises(ValueError, match="format"):
        ControllerState.from_doc({"format": 99})


def test_a_malformed_topology_entry_is_kept_as_stored_and_the_others_parse():
    good = {"last_action_at": 5, "recent": {"ok/[1,1]": {"at": 5, "from_slot": "a:1", "to_slot": "b:1"}}}
    bad = {"wc": {"recent": {"wc/[1,1]": {"at": "yesterday", "from_slot": "a:1", "to_slot": "b:1"}}},
           "x": [1], "y": {"recent": []}, "z": {"last_action_at": True}}
    doc = {"format": 1, "cycle": 3, "topologies": {"ok": good, **bad}}
    s = ControllerState.from_doc(doc)
    assert set(s.topologies) == {"ok"} and set(s.broken) == {"wc", "x", "y", "z"}
    assert "recent['wc/[1,1]'].at must be a number" in s.broken["wc"][1]
    assert s.to_doc()["topologies"] == doc["topologies"], "a save loses nothing"
    assert s.known() == {"ok", "wc", "x", "y", "z"}
    pruned = s.without({"wc", "ok"})
    assert pruned.known() == {"x", "y", "z"}
