import json
from pathlib import Path

from pycontrol.move_rules import unmovable

CASES = Path(__file__).resolve().parents[2] / "vectors" / "move_rules" / "cases.json"


def test_every_shared_case_gives_the_expected_components_and_reason_codes():
    cases = json.loads(CASES.read_text())["cases"]
    assert len(cases) >= 8
    for case in cases:
        got = {c: why.split(":", 1)[0] for c, why in unmovable(case["inputs"], case["conf"], case.get("component_conf")).items()}
        assert got == case["unmovable"], case["name"]
