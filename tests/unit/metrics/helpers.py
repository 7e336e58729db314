"""Shared test inputs: the document fixture (pinned with the Java encoder) and the recorded round."""

from __future__ import annotations

import copy
import json
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
DOCUMENT_FIXTURE = FIXTURES / "metrics-document-v1.json"
RECORDED_FIXTURE = FIXTURES / "metrics-recorded-keyed.json"


def fixture_dict() -> dict:
    return json.loads(DOCUMENT_FIXTURE.read_text())


def recorded() -> dict:
    return json.loads(RECORDED_FIXTURE.read_text())


def variant(**changes) -> dict:
    """The fixture document with top-level sections replaced/updated (deep-copied)."""
    d = copy.deepcopy(fixture_dict())
    for k, v in changes.items():
        if isinstance(v, dict) and isinstance(d.get(k), dict):
            d[k].update(v)
        else:
            d[k] = v
    return d
