"""The shared executor id vectors (tests/vectors/wire/executor_ids.json): the Java readers' tests read the same
file, so both sides accept and refuse the same spellings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pycontrol.wire.executor import ExecutorId

VECTORS = json.loads((Path(__file__).resolve().parents[2] / "vectors" / "wire" / "executor_ids.json").read_text())


def _ids(cases):
    return [repr(c["text"]) for c in cases]


def test_there_are_cases_of_every_kind():
    assert len(VECTORS["wire"]) >= 3 and len(VECTORS["ui"]) >= 3 and len(VECTORS["invalid"]) >= 12


@pytest.mark.parametrize("case", VECTORS["wire"], ids=_ids(VECTORS["wire"]))
def test_wire_spellings_parse_and_print_back(case):
    e = ExecutorId.parse(case["text"])
    assert (e.start, e.end) == (case["start"], case["end"])
    assert str(e) == case["text"]
    with pytest.raises(ValueError):
        ExecutorId.from_ui(case["text"])


@pytest.mark.parametrize("case", VECTORS["ui"], ids=_ids(VECTORS["ui"]))
def test_ui_spellings_are_read_and_become_the_wire_spelling(case):
    e = ExecutorId.from_ui(case["text"])
    assert (e.start, e.end) == (case["start"], case["end"])
    assert e.ui == case["text"] and str(e) == f"[{case['start']},{case['end']}]"
    with pytest.raises(ValueError):
        ExecutorId.parse(case["text"])


@pytest.mark.parametrize("case", VECTORS["invalid"], ids=_ids(VECTORS["invalid"]))
def test_invalid_ids_are_refused_in_either_spelling(case):
    with pytest.raises(ValueError):
        ExecutorId.parse(case["text"])
    with pytest.raises(ValueError):
        ExecutorId.from_ui(case["text"])
