import pytest

from pycontrol.controller import policy
from pycontrol.errors import UserError


def test_topologies_inherit_defaults_and_override_them():
    cfg = policy.parse({
        "cycle_s": 5,
        "defaults": {"policy": "otd", "params": {"threshold_asc": 10}, "safety": {"cooldown_s": 20}},
        "topologies": {"wc": {"params": {"high_cpu": 0.9}, "safety": {"dry_run": True}},
                       "other": {"policy": "plan-only"}},
    })
    wc = cfg.for_topology("wc")
    assert wc.policy == "otd" and wc.params == {"threshold_asc": 10, "high_cpu": 0.9}
    assert wc.safety.dry_run is True and wc.safety.cooldown_s == 20
    assert cfg.for_topology("other").params == {}
    assert cfg.for_topology("unlisted").safety.cooldown_s == 20


@pytest.mark.parametrize("data, fragment", [
    ({"cycle_s": 0}, "cycle_s: must be a positive number"),
    ({"defaults": {"policy": "magic"}}, "config.defaults.policy: 'magic' is not one of"),
    ({"topologies": {"wc": {"safety": {"cooldown": 3}}}}, "config.topologies.wc.safety: unknown key(s) ['cooldown']"),
    ({"topologies": {"wc": {"safety": {"max_moves_per_cycle": 0}}}}, "max_moves_per_cycle must be >= 1"),
    ({"toplogies": {}}, "unknown key(s) ['toplogies']"),
    ([1, 2], "expected a mapping at the top level"),
])
def test_mistakes_are_named_with_their_place(data, fragment):
    with pytest.raises(UserError) as e:
        policy.parse(data)
    assert fragment in str(e.value)


def test_load_reports_bad_yaml_and_missing_files(tmp_path):
    bad = tmp_path / "c.yaml"
    bad.write_text("cycle_s: [1,\n")
    with pytest.raises(UserError, match="is not valid YAML"):
        policy.load(bad)
    with pytest.raises(UserError, match="cannot read controller config"):
        policy.load(tmp_path / "missing.yaml")


def test_daemon_settings_and_policy_params_are_checked():
    cfg = policy.parse({"cycle_s": 2, "stale_windows": 2, "verify_timeout_s": 30, "planner_timeout_s": 9,
                        "defaults": {"policy": "aniello-online", "params": {"beta": 0.3}}})
    assert (cfg.cycle_s, cfg.stale_windows, cfg.verify_timeout_s, cfg.planner_timeout_s) == (2.0, 2.0, 30.0, 9.0)
    assert policy.parse({}).stale_windows == 3.0
    with pytest.raises(UserError, match=r"config.topologies.wc.params \(policy otd\): unknown key\(s\) \['beta'\]"):
        policy.parse({"topologies": {"wc": {"policy": "otd", "params": {"beta": 0.3}}}})
    with pytest.raises(UserError, match="config.stale_windows: must be a positive number"):
        policy.parse({"stale_windows": True})
