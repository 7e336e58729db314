"""The workers' migration event files (<storm.local.dir>/nonstop/worker-<port>.events.jsonl), written
by the agent at the moment each step happens: attached, reconcile, started, switch, stopped. The agent
rotates a full file to `<name>.1` (one generation kept); readers take the rotated file first."""

from __future__ import annotations

import json
from pathlib import Path


def events_file(node_local_dir: Path, port: int) -> Path:
    return node_local_dir / "nonstop" / f"worker-{port}.events.jsonl"


def read_events(path: Path) -> list[dict]:
    """Every complete line of the rotated file and then the current one, in the order written; a line
    still being written is skipped."""
    lines: list[str] = []
    for part in (path.with_name(path.name + ".1"), path):
        try:
            lines += part.read_text().splitlines()
        except FileNotFoundError:
            continue
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
