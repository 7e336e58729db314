"""The replay file read by the rate-controlled spout: a fixed, shared format.

gzip-compressed NDJSON, UTF-8, one event per line, sorted by `offset_ms` (ties keep input order):

    {"offset_ms": 0, "key": "/english/index.html"}
    {"offset_ms": 250, "key": "/images/logo.gif", "payload": "200|1024"}

- `offset_ms`: int >= 0, milliseconds since the trace start (the first parsed event of the
  *unsampled* trace, so a sampled replay stays on the original timeline), divided by the speed-up
  and floored: offset_ms = floor((t_ms - t0_ms) / speedup).
- `key`: string, the grouping key (fields grouping in the topology).
- `payload`: string, optional (absent when the trace has none).

The writer is the Spark job in `prepare` (it renders each line with to_json); this module holds the
file name, the encoder used by small producers and tests, and the validating reader.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from pycontrol.traces.errors import TraceError

REPLAY_FILE = "replay.ndjson.gz"
FIELDS = ("offset_ms", "key", "payload")


@dataclass(frozen=True)
class ReplayEvent:
    offset_ms: int
    key: str
    payload: str | None = None

    def to_line(self) -> str:
        doc: dict = {"offset_ms": self.offset_ms, "key": self.key}
        if self.payload is not None:
            doc["payload"] = self.payload
        return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


def parse_line(line: str, where: str = "line") -> ReplayEvent:
    """One replay line as an event, or a TraceError naming `where` and what is wrong."""
    try:
        doc = json.loads(line)
    except json.JSONDecodeError as e:
        raise TraceError(f"{where}: not JSON ({e.msg})") from None
    if not isinstance(doc, dict):
        raise TraceError(f"{where}: expected a JSON object, got {type(doc).__name__}")
    unknown = set(doc) - set(FIELDS)
    if unknown:
        raise TraceError(f"{where}: unknown field(s) {sorted(unknown)}; allowed: {list(FIELDS)}")
    offset, key, payload = doc.get("offset_ms"), doc.get("key"), doc.get("payload")
    if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
        raise TraceError(f"{where}: offset_ms must be an integer >= 0, got {offset!r}")
    if not isinstance(key, str):
        raise TraceError(f"{where}: key must be a string, got {key!r}")
    if payload is not None and not isinstance(payload, str):
        raise TraceError(f"{where}: payload must be a string when present, got {payload!r}")
    return ReplayEvent(offset, key, payload)


def read_replay(path: str | Path) -> Iterator[ReplayEvent]:
    """Events of a replay file in order; a TraceError on the first malformed or out-of-order line."""
    path = Path(path)
    last = 0
    try:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                event = parse_line(line, f"{path}:{n}")
                if event.offset_ms < last:
                    raise TraceError(f"{path}:{n}: offset_ms {event.offset_ms} is before the previous "
                                     f"line's {last}; replay files are sorted by offset_ms")
                last = event.offset_ms
                yield event
    except (OSError, EOFError) as e:  # not gzip, truncated, unreadable
        raise TraceError(f"{path}: cannot read replay file ({e})") from None
