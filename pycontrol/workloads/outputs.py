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


def read_counts(dirs: Iterable[Path], component: str | None = None) -> Counts:
    """Counts summed over tasks. If a task wrote in several places (a restarted or moved worker),
    its newest snapshot wins. Unreadable files are skipped (a snapshot is replaced atomically, so
    that only happens with foreign files)."""
    newest: dict[tuple[str, int], dict] = {}
    for d in dirs:
        for f in Path(d).glob(COUNTS_GLOB):
            try:
                doc = json.loads(f.read_text(encoding="utf-8"))
                key = (str(doc["component"]), int(doc["task"]))
            except (ValueError, KeyError, TypeError, OSError):
                continue
            if component is not None and key[0] != component:
                continue
            if key not in newest or doc.get("written_ms", 0) >= newest[key].get("written_ms", 0):
                newest[key] = doc
    words: Counter = Counter()
    tuples = 0
    for doc in newest.values():
        words.update({str(k): int(v) for k, v in doc.get("counts", {}).items()})
        tuples += int(doc.get("tuples", 0))
    return Counts(words=words, tuples=tuples, tasks=len(newest))
