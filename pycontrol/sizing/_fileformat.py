"""Reading the small YAML/JSON documents of this package (DAGs, model tables) with clear errors.

YAML 1.1 as read by PyYAML's safe loader accepts ordinary JSON too, so one reader serves both.
Every check names the file and the place inside it, so a bad file costs one look to fix.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import yaml

from pycontrol.sizing.errors import SizingError


def read_document(path: Path) -> Any:
    """The parsed content of a YAML or JSON file."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise SizingError(f"cannot read {path}: {e.strerror or e}") from e
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise SizingError(f"{path}: not valid YAML/JSON{where}: {problem}") from e


def expect_mapping(value: Any, where: str, *, required: Iterable[str] = (),
                   allowed: Iterable[str] | None = None) -> Mapping[str, Any]:
    """`value` as a mapping with string keys, the required keys present and no unknown ones."""
    if not isinstance(value, Mapping):
        raise SizingError(f"{where}: expected a mapping, got {_kind(value)}")
    for key in value:
        if not isinstance(key, str):
            raise SizingError(f"{where}: keys must be strings, got {key!r}")
    missing = [k for k in required if k not in value]
    if missing:
        raise SizingError(f"{where}: missing key(s) {', '.join(missing)}")
    if allowed is not None:
        allowed = set(allowed) | set(required)
        unknown = sorted(set(value) - allowed)
        if unknown:
            raise SizingError(f"{where}: unknown key(s) {', '.join(unknown)} "
                              f"(allowed: {', '.join(sorted(allowed))})")
    return value


def expect_list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise SizingError(f"{where}: expected a list, got {_kind(value)}")
    return value


def expect_name(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise SizingError(f"{where}: expected a non-empty name, got {value!r}")
    return value


def expect_number(value: Any, where: str, *, minimum: float = 0.0, strict: bool = False) -> float:
    """A finite real number >= minimum (> minimum if strict); booleans are not numbers here."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise SizingError(f"{where}: expected a finite number, got {value!r}")
    if value < minimum or (strict and value == minimum):
        relation = ">" if strict else ">="
        raise SizingError(f"{where}: must be {relation} {minimum:g}, got {value!r}")
    return float(value)


def expect_positive_int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise SizingError(f"{where}: expected a whole number >= 1, got {value!r}")
    return value


def _kind(value: Any) -> str:
    return "nothing" if value is None else type(value).__name__
