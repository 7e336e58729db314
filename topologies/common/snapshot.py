"""Counts snapshots: the file format io.nonstopstorm.workloads.measure.CountsSnapshot writes."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

MEASURE_DIR_KEY = "nonstop.measure.dir"


def safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", name)


def snapshot_path(directory: str | os.PathLike, component: str, task: int) -> Path:
    return Path(directory) / f"counts-{safe(component)}-{task}.json"


def write_counts(directory: str | os.PathLike, component: str, task: int, counts: dict, tuples: int) -> Path:
    """Writes atomically (temp file + rename), so a reader never sees half a file."""
    path = snapshot_path(directory, component, task)
    tmp = path.with_name(f".{path.name}.tmp")
    doc = {"component": component, "task": task, "tuples": tuples,
           "written_ms": int(time.time() * 1000), "counts": counts}
    tmp.write_text(json.dumps(doc), encoding="utf-8")
    os.replace(tmp, path)
    return path
