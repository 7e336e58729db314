"""Reading results/ for the report (the I/O around the pure builders): every JSON file, every PNG,
paths relative to results/."""

from __future__ import annotations

import json
from pathlib import Path

from pycontrol.errors import UserError


def read_results(results: Path) -> tuple[dict[str, object], list[str], list[str]]:
    """(documents by relative path, PNG paths, files that are not valid JSON). A file that does not
    parse is reported, not skipped silently."""
    if not results.is_dir():
        raise UserError(f"no results directory at {results}")
    docs: dict[str, object] = {}
    broken: list[str] = []
    for p in sorted(results.rglob("*.json")):
        rel = p.relative_to(results).as_posix()
        try:
            docs[rel] = json.loads(p.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            broken.append(f"{rel}: {e}")
    figures = sorted(p.relative_to(results).as_posix() for p in results.rglob("*.png"))
    return docs, figures, broken
