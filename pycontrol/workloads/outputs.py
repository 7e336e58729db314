"""Reading counts snapshots (counts-<component>-<task>.json) that the counting bolts write."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

COUNTS_GLOB = "counts-*.json"


@dataclass(frozen=True)
class Counts:
    words: Counter
    tuples: int
    tasks: int


@dataclass(frozen=True)
class Snapshot:
    """One counts file: what one task instance had counted when it last wrote."""
    path: Path
    component: str
    task: int
    tuples: int
    written_ms: int
    words: Counter


def read_snapshots(dirs: Iterable[Path], component: str | None = None) -> list[Snapshot]:
    """Every readable counts file in the directories (a task that ran in several workers, e.g. a moved
    or restarted one, has one per worker). Unreadable files are skipped (a snapshot is replaced
    atomically, so that only happens with foreign files)."""
    out = []
    for d in dirs:
        for f in sorted(Path(d).glob(COUNTS_GLOB)):
            try:
                doc = json.loads(f.read_text(encoding="utf-8"))
                snap = Snapshot(f, str(doc["component"]), int(doc["task"]), int(doc.get("tuples", 0)),
                                int(doc.get("written_ms", 0)),
                                Counter({str(k): int(v) for k, v in doc.get("counts", {}).items()}))
            except (ValueError, KeyError, TypeError, AttributeError, OSError):
                continue
            if component is None or snap.component == component:
                out.append(snap)
    return out


def read_counts(dirs: Iterable[Path], component: str | None = None) -> Counts:
    """Counts summed over tasks. If a task wrote in several places (a restarted or moved worker),
    its newest snapshot wins."""
    newest: dict[tuple[str, int], Snapshot] = {}
    for snap in read_snapshots(dirs, component):
        key = (snap.component, snap.task)
        if key not in newest or snap.written_ms >= newest[key].written_ms:
            newest[key] = snap
    words: Counter = Counter()
    for snap in newest.values():
        words.update(snap.words)
    return Counts(words=words, tuples=sum(s.tuples for s in newest.values()), tasks=len(newest))
