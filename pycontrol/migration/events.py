"""The workers' migration event files (<storm.local.dir>/nonstop/worker-<port>.events.jsonl), written
by the agent at the moment each step happens: attached, reconcile, started, switch, stopped."""

from __future__ import annotations

import json
from pathlib import Path


def events_file(node_local_dir: Path, port: int) -> Path:
    return node_local_dir / "nonstop" / f"worker-{port}.events.jsonl"


def read_events(path: Path) -> list[dict]:
    """Every complete line; a line still being written is skipped."""
    try:
        lines = path.read_text().splitlines()
    except FileNotFoundError:
        return []
    out = []
    for line in lines:
        try:
            out.append(json.loads(line))
        except ValueError:
            continue
    return out


def first(events: list[dict], event: str, after_ms: float = 0, **match) -> dict | None:
    """The first event of that kind at or after after_ms whose fields equal `match`."""
    for e in events:
        if e.get("event") == event and e.get("t_ms", 0) >= after_ms and all(e.get(k) == v for k, v in match.items()):
            return e
    return None
