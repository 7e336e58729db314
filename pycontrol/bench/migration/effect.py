"""Plan-to-effect of one moved executor over every worker that sends to it, from the workers' migration
events (worker-<port>.events.jsonl). Pure.

A move is in effect when the executor runs on its target and every worker hosting an executor that sends
to it routes to the new home. Each worker's part is matched to the node plan that carried this move, not
just to the first event after the plan was written:

* the source and the target: their `reconcile` (after the plan) naming the executor in `removed` /
  `added` gives the node plan version; their part is done at the `switch` (new routing epoch) of that
  version or a later one (a worker merges plans that arrive before it switched);
* any other sending worker: its `plan_seen` of the first node plan written after the driver's plan gives
  the version; its part is done at a `switch` of exactly that version when the plan changed its own
  executors too, else when it saw the plan: the refresh that follows `plan_seen` at once points its
  senders at the new home, and the agent writes no event of its own at that refresh's end, so this is a
  lower bound by the refresh's length (`via: "plan_seen"`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pycontrol.migration.events import first

# Who sends to whom in the word count (wordcount-java): a component -> the components sending to it.
# Every spout and bolt tells the ackers about its tuples; the ackers answer the spout.
WORDCOUNT_SENDERS = {"split": ("sentences",), "count": ("split",), "sentences": ("__acker",),
                     "__acker": ("sentences", "split", "count")}


def sending_slots(component: str, placement: Mapping[str, str], component_of: Mapping[str, str],
                  senders: Mapping[str, Iterable[str]] = WORDCOUNT_SENDERS) -> list[str]:
    """Slots hosting an executor of a component that sends to `component` (placement: executor -> slot)."""
    upstream = set(senders.get(component, ()))
    return sorted({slot for e, slot in placement.items() if component_of.get(e) in upstream})


def _reconcile_naming(events: list[dict], executor_key: str, t0_ms: float, side: str) -> dict | None:
    for e in events:
        if e.get("event") == "reconcile" and e.get("t_ms", 0) >= t0_ms and executor_key in str(e.get(side, "")):
            return e
    return None


def _switch(events: list[dict], after_ms: float, version: int, exact: bool) -> dict | None:
    for e in events:
        if e.get("event") != "switch" or e.get("t_ms", 0) < after_ms:
            continue
        v = e.get("plan_version")
        if isinstance(v, int) and (v == version if exact else v >= version):
            return e
    return None


def mover_part(events: list[dict], executor_key: str, t0_ms: float, side: str) -> dict | None:
    """The source's ("removed") or target's ("added") routing switch for this move, or None yet."""
    rec = _reconcile_naming(events, executor_key, t0_ms, side)
    if rec is None:
        return None
    sw = _switch(events, rec["t_ms"], int(rec.get("plan_version", -1)), exact=False)
    if sw is None:
        return None
    return {"ms": sw["t_ms"] - t0_ms, "via": "switch", "plan_version": sw["plan_version"]}


def sender_part(events: list[dict], t0_ms: float) -> dict | None:
    """A sending worker that neither loses nor gains the executor: see the module's description."""
    seen = next((e for e in events if e.get("event") == "plan_seen" and e.get("t_ms", 0) >= t0_ms
                 and e.get("plan_written_ms", 0) >= t0_ms), None)
    if seen is None:
        return None
    version = int(seen.get("plan_version", -1))
    sw = _switch(events, seen["t_ms"], version, exact=True)
    if sw is not None:
        return {"ms": sw["t_ms"] - t0_ms, "via": "switch", "plan_version": version}
    return {"ms": seen["t_ms"] - t0_ms, "via": "plan_seen", "plan_version": version}


def move_effect(events_by_slot: Mapping[str, list[dict]], executor_key: str, source: str, target: str,
                senders: Iterable[str], t0_ms: float) -> dict:
    """{"ms": plan written -> the last of (started on the target, every involved worker's part), or None
    while a part is missing; "started_ms"; "workers": slot -> part or None; "missing": slots without}."""
    started = first(events_by_slot.get(target, []), "started", t0_ms, executor=executor_key)
    parts: dict[str, dict | None] = {
        source: mover_part(events_by_slot.get(source, []), executor_key, t0_ms, "removed"),
        target: mover_part(events_by_slot.get(target, []), executor_key, t0_ms, "added"),
    }
    for slot in senders:
        if slot not in parts:
            parts[slot] = sender_part(events_by_slot.get(slot, []), t0_ms)
    missing = sorted(s for s, p in parts.items() if p is None)
    started_ms = started["t_ms"] - t0_ms if started else None
    done = started_ms is not None and not missing
    return {"ms": round(max([started_ms, *(p["ms"] for p in parts.values())]), 1) if done else None,
            "started_ms": started_ms, "workers": parts, "missing": missing}
