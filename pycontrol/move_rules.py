"""Which of a topology's components are not moved live, and why: the controller's copy of the rule that
Nimbus applies to every live move (io.nonstopstorm.scheduling.plan.MoveRules, which is authoritative:
a plan that breaks it is rejected there). The controller keeps these components' executors out of what
it proposes, so it does not plan moves Nimbus would refuse. tests/vectors/move_rules keeps both equal.
Reasons start with their code. Pure.

* pinned: the topology conf `nonstop.migration.pinned` lists component ids the operator keeps in place
  (e.g. a spout that keeps its read position in memory); a value that is not a list of strings pins
  every component (bad_pinned).
* in_memory_state: while the topology keeps its state in Storm's in-memory provider, the checkpoint spout
  (its transaction is not handed over), and every bolt on its stream when state handoff is off
  (`nonstop.migration.state.handoff` false or malformed): without the handoff, a move between a checkpoint's
  PREPARE and COMMIT stops checkpointing. Nimbus also refuses them when its Storm's stateful bolt executor is
  not the one the handoff reads; the controller cannot see that and leaves it to Nimbus.
* event_time_window: a windowed bolt (its own conf sets a window length) on event time, known by its own conf
  setting a late-tuple stream, a maximum lag or a watermark interval (EVENT_TIME_KEYS): a live move hands a
  count-based window over, not an event-time one, whose replayed tuples would reach the new instance late and
  be dropped. Needs each component's own conf (`component_confs`); without it the controller leaves this to
  Nimbus.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

PINNED_KEY = "nonstop.migration.pinned"
STATE_PROVIDER_KEY = "topology.state.provider"
IN_MEMORY_PROVIDER = "org.apache.storm.state.InMemoryKeyValueStateProvider"
CHECKPOINT_STREAM = "$checkpoint"
CHECKPOINT_SPOUT = "$checkpointspout"
HANDOFF_KEY = "nonstop.migration.state.handoff"
WINDOW_LENGTH_KEYS = ("topology.bolts.window.length.count", "topology.bolts.window.length.duration.ms")
EVENT_TIME_KEYS = ("topology.bolts.late.tuple.stream", "topology.bolts.tuple.timestamp.max.lag.ms",
                   "topology.bolts.watermark.event.interval.ms")

PINNED = "pinned"
BAD_PINNED = "bad_pinned"
IN_MEMORY_STATE = "in_memory_state"
EVENT_TIME_WINDOW = "event_time_window"


def unmovable(input_streams: Mapping[str, Iterable[str]], conf: Mapping[str, Any],
              component_confs: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, str]:
    """Component -> why it is not moved live, for every component of the topology (with the streams it
    consumes; spouts none) under its conf and, where known, each component's own conf."""
    out: dict[str, str] = {}
    for c, own in (component_confs or {}).items():
        if (c in input_streams and any(k in own for k in WINDOW_LENGTH_KEYS)
                and any(k in own for k in EVENT_TIME_KEYS)):
            out[c] = (f"{EVENT_TIME_WINDOW}: a windowed bolt on event time (its component conf sets one of "
                      f"{list(EVENT_TIME_KEYS)}): the tuples and watermarks of its window are not handed over in a "
                      f"live move, and their replays would reach the new instance late and be dropped. Use Storm's "
                      f"rebalance")
    provider = conf.get(STATE_PROVIDER_KEY)
    if provider is None or not str(provider).strip() or str(provider).strip() == IN_MEMORY_PROVIDER:
        spout = (f"{IN_MEMORY_STATE}: the checkpoint spout's transaction is not handed over and the topology keeps "
                 f"its state in Storm's in-memory provider")
        bolt = None if _handoff_on(conf) else (
            f"{IN_MEMORY_STATE}: it takes part in Storm's state checkpointing, the topology keeps its state in "
            f"Storm's in-memory provider and state handoff is off ({HANDOFF_KEY}); a live move between a "
            f"checkpoint's PREPARE and COMMIT would stop checkpointing for good")
        for c, streams in input_streams.items():
            if c == CHECKPOINT_SPOUT:
                out[c] = spout
            elif bolt is not None and CHECKPOINT_STREAM in set(streams):
                out[c] = bolt
    pinned = conf.get(PINNED_KEY)
    if pinned is None:
        return out
    if not isinstance(pinned, list) or not all(isinstance(c, str) for c in pinned):
        return {c: f"{BAD_PINNED}: {PINNED_KEY} must be a list of component ids, got {pinned!r}" for c in input_streams}
    for c in pinned:
        if c in input_streams:
            out[c] = f"{PINNED}: the topology pins it ({PINNED_KEY})"
    return out


def _handoff_on(conf: Mapping[str, Any]) -> bool:
    """As the worker reads the switch: unset is on, true/false in any case, anything else turns it off."""
    value = conf.get(HANDOFF_KEY)
    return value is None or str(value).strip().lower() == "true"
