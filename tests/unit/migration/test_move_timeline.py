"""A move's timeline from the source and target workers' event files (plan-to-effect times)."""

from pycontrol.migration.observe import move_timeline

T0 = 1_000_000.0
KEY = "[5,5]"


def events(*items):
    return [{"event": e, "t_ms": T0 + dt, **fields} for e, dt, fields in items]


SRC = events(("switch", -500, {}),                       # an earlier move's switch: before t0, ignored
             ("reconcile", 300, {}), ("switch", 420, {}),
             ("stopped", 2400, {"executor": KEY, "queued": 7, "dropped_total": 2}))
DST = events(("started", 200, {"executor": "[6,6]"}),    # another executor
             ("started", 350, {"executor": KEY, "unparked": 4}), ("switch", 380, {}))


def test_effect_is_when_the_executor_runs_on_the_target_and_both_workers_route_to_it():
    tl = move_timeline(SRC, DST, KEY, T0)
    assert (tl.started_ms, tl.target_switched_ms, tl.source_switched_ms) == (350, 380, 420)
    assert tl.effect_ms == 420
    assert (tl.stopped_ms, tl.queued_at_stop, tl.unparked, tl.dropped_total) == (2400, 7, 4, 2)


def test_no_timeline_until_started_and_switched_and_stop_is_optional():
    assert move_timeline(SRC, DST[:1], KEY, T0) is None                  # not started on the target yet
    assert move_timeline(SRC[:2], DST, KEY, T0) is None                  # source has not switched yet
    tl = move_timeline(SRC[:3], DST, KEY, T0)                            # lazy kill still pending
    assert tl.effect_ms == 420 and tl.stopped_ms is None and tl.queued_at_stop is None
    assert move_timeline(SRC, DST, KEY, T0 + 1000) is None               # events of a later plan only
