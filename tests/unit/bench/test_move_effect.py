"""Plan-to-effect over every sending worker, matched to the node plan version of the move."""

from pycontrol.bench.migration.effect import move_effect, sender_part, sending_slots

T0 = 1_000_000
A, B, C, D = "h1:1", "h1:2", "h2:1", "h2:2"


def ev(t, event, **kw):
    return {"t_ms": T0 + t, "event": event, **kw}


def test_senders_are_the_workers_of_the_upstream_components_after_the_move():
    placement = {"[1-1]": A, "[2-2]": B, "[3-3]": C, "[4-4]": D, "[5-5]": A}
    comps = {"[1-1]": "sentences", "[2-2]": "split", "[3-3]": "split", "[4-4]": "count", "[5-5]": "__acker"}
    assert sending_slots("split", placement, comps) == [A]
    assert sending_slots("count", placement, comps) == [B, C]
    assert sending_slots("sentences", placement, comps) == [A]          # the ackers answer the spout
    assert sending_slots("__acker", placement, comps) == [A, B, C, D]
    assert sending_slots("unknown", placement, comps) == []


def test_the_effect_waits_for_the_last_sending_worker_and_ignores_other_plans_switches():
    events = {
        A: [ev(-500, "switch", plan_version=6),                                      # an earlier plan
            ev(200, "reconcile", plan_version=7, removed="[[3,3], [13,13]]", added="[]"),
            ev(450, "switch", plan_version=7)],
        B: [ev(150, "reconcile", plan_version=4, added="[[3,3]]", removed="[]"),
            ev(300, "started", executor="[3,3]"), ev(320, "switch", plan_version=4)],
        C: [ev(100, "plan_seen", plan_version=9, plan_written_ms=T0 + 60),          # only sends: no switch
            ev(5000, "switch", plan_version=10)],                                    # the next plan's
        D: [ev(90, "plan_seen", plan_version=3, plan_written_ms=T0 + 50),
            ev(120, "reconcile", plan_version=3, added="[[8,8]]", removed="[]"),     # moved something else
            ev(900, "switch", plan_version=3)],
    }
    got = move_effect(events, "[3,3]", A, B, [C, D, A], T0)
    assert got["ms"] == 900 and got["started_ms"] == 300 and got["missing"] == []
    assert got["workers"][A] == {"ms": 450, "via": "switch", "plan_version": 7}
    assert got["workers"][C] == {"ms": 100, "via": "plan_seen", "plan_version": 9}
    assert got["workers"][D]["via"] == "switch"


def test_a_sender_that_has_not_seen_the_plan_keeps_the_move_open():
    events = {A: [ev(200, "reconcile", plan_version=7, removed="[[3,3]]"), ev(450, "switch", plan_version=7)],
              B: [ev(150, "reconcile", plan_version=4, added="[[3,3]]"), ev(300, "started", executor="[3,3]"),
                  ev(320, "switch", plan_version=4)],
              C: [ev(-100, "plan_seen", plan_version=8, plan_written_ms=T0 - 200)]}   # before the plan
    got = move_effect(events, "[3,3]", A, B, [C], T0)
    assert got["ms"] is None and got["missing"] == [C]


def test_a_reconcile_naming_another_executor_is_not_this_moves():
    events = {A: [ev(200, "reconcile", plan_version=7, removed="[[13,13]]"), ev(450, "switch", plan_version=7)],
              B: [ev(150, "reconcile", plan_version=4, added="[[3,3]]"), ev(300, "started", executor="[3,3]"),
                  ev(320, "switch", plan_version=4)]}
    got = move_effect(events, "[3,3]", A, B, [], T0)
    assert got["ms"] is None and got["missing"] == [A]


def test_a_sender_plan_written_before_the_driver_plan_does_not_count():
    assert sender_part([ev(10, "plan_seen", plan_version=2, plan_written_ms=T0 - 5)], T0) is None
