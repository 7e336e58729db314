"""Options of `pycontrol bench migration`: defaults, argument errors, and which clusters run what."""

import pytest
from click.testing import CliRunner

from pycontrol.bench.migration import schemes
from pycontrol.bench.migration.schemes import make_options, parse_sweep, plan_runs
from pycontrol.cli import main
from pycontrol.cluster import storm_conf
from pycontrol.errors import UserError


def opts(**kw):
    args = {"quick": False, "schemes": "all", "moves": None, "duration_s": None, "period_s": None, "sweep": None,
            "rate": 400, "seed": 1, "rebalance_wait_s": None} | kw
    return make_options(**args)


def test_quick_and_full_defaults_and_explicit_flags_win():
    q = opts(quick=True)
    assert (q.duration_s, q.period_s, q.moves, q.rebalance_wait_s) == (120, 30, (1, 4), 15)
    assert q.move_offsets() == [30, 60, 90]
    f = opts()
    assert (f.duration_s, f.period_s, f.moves, f.rebalance_wait_s) == (600, 60, (1, 2, 4, 8, 16), 30)
    assert f.move_offsets() == list(range(60, 600, 60))
    o = opts(quick=True, moves="2", duration_s=90, period_s=20, rebalance_wait_s=0)
    assert (o.duration_s, o.period_s, o.moves, o.rebalance_wait_s) == (90, 20, (2,), 0)


def test_clusters_stock_first_then_one_per_scheme_with_a_segment_per_m():
    runs = plan_runs(opts(quick=True, schemes="nonstop+,rebalance,worker-restart", sweep="10:3,1:0.3"))
    assert [r.name for r in runs] == ["stock", "nonstop+", "worker-restart", "sweep-ts10-tw3", "sweep-ts1-tw0.3"]
    assert [(s.scheme.name, s.m) for s in runs[0].segments] == [("baseline", None), ("rebalance", None)]
    assert [(s.scheme.name, s.m) for s in runs[1].segments] == [("nonstop+", 1), ("nonstop+", 4)]
    assert [(s.scheme.name, s.m) for s in runs[3].segments] == [("sweep-ts10-tw3", 4)]
    assert [r.migration for r in runs] == [False, True, False, True, True]
    conf = dict(runs[4].conf)
    assert conf[schemes.T_S_KEY] == 1 and conf[schemes.T_W_KEY] == 300 and conf[schemes.PUSH] is False


def test_the_stock_schemes_load_no_agent_and_only_worker_restart_adds_the_plan_following_scheduler():
    for s in (schemes.BASELINE, schemes.REBALANCE, schemes.WORKER_RESTART):
        assert s.stock and not s.nonstop and "no agent in any JVM" in s.about
        assert not any(k.startswith("nonstop.migration") for k in s.extra_conf)
    assert schemes.WORKER_RESTART.extra_conf["storm.scheduler"] == storm_conf.NONSTOP_SCHEDULER
    assert "storm.scheduler" not in schemes.REBALANCE.extra_conf and "storm.scheduler" not in schemes.BASELINE.extra_conf
    assert not schemes.NONSTOP_PLUS.stock and schemes.NONSTOP_PLUS.nonstop


def test_without_rebalance_the_stock_cluster_runs_only_the_baseline():
    runs = plan_runs(opts(quick=True, schemes="nonstop"))
    assert [(r.name, [s.scheme.name for s in r.segments]) for r in runs] == [("stock", ["baseline"]),
                                                                          ("nonstop", ["nonstop", "nonstop"])]


@pytest.mark.parametrize("kw, fragment", [
    ({"schemes": "nonstop,teleport"}, "unknown scheme(s) teleport"),
    ({"schemes": ""}, "needs at least one"),
    ({"schemes": "nonstop,nonstop"}, "twice"),
    ({"moves": "1,x"}, "comma-separated list of whole numbers"),
    ({"moves": "0,2"}, "at least 1"),
    ({"moves": "2,2"}, "twice"),
    ({"period_s": 3}, "--period must be at least 5"),
    ({"duration_s": 100, "period_s": 60}, "at least twice --period"),
    ({"rate": 0}, "--rate must be a positive"),
    ({"rebalance_wait_s": 60}, "--rebalance-wait must be between 0 and the period"),
    ({"sweep": "10-3"}, "T_S:T_W pairs"),
    ({"sweep": "0.5:0.1"}, "T_S:T_W pairs"),
    ({"sweep": "3:1,3:1"}, "twice"),
])
def test_argument_errors_name_the_flag(kw, fragment):
    with pytest.raises(UserError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        opts(**kw)


def test_sweep_pairs_parse():
    assert parse_sweep("10:3, 1:0.3") == ((10, 3.0), (1, 0.3))
    assert parse_sweep(None) == ()


def test_the_command_rejects_bad_flags_before_starting_any_cluster(tmp_path):
    r = CliRunner().invoke(main, ["bench", "migration", "--quick", "--moves", "1,-4", "--home", str(tmp_path)],
                           standalone_mode=False, catch_exceptions=True)
    assert isinstance(r.exception, UserError) and "--moves values must be at least 1" in str(r.exception)
    assert list(tmp_path.iterdir()) == []


def test_only_thread_level_schemes_are_timed_from_migration_events():
    nonstop = {s.name: s.nonstop for s in (schemes.BASELINE, *schemes.MOVING.values(), schemes.sweep_scheme(3, 1))}
    assert nonstop == {"baseline": False, "rebalance": False, "worker-restart": False, "nonstop": True,
                       "nonstop+": True, "sweep-ts3-tw1": True}


def test_every_run_gets_a_topology_name_storm_accepts():
    import re
    from pycontrol.bench.migration.runner import safe_name
    runs = plan_runs(opts(quick=True, schemes="all", sweep="10:3,1:0.3"))
    names = [f"bench-{safe_name(r.name)}" for r in runs]
    assert "bench-sweep-ts1-tw0p3" in names and "bench-nonstop-plus" in names
    assert all(re.fullmatch(r"[^/.:\\]+", n) for n in names), names     # Nimbus's own check


def test_repeat_and_moving_spouts_are_options_and_a_bad_repeat_is_refused():
    o = opts()
    assert o.repeat == 3 and not o.move_spouts
    o = opts(repeat=1, move_spouts=True)
    assert o.repeat == 1 and o.move_spouts
    with pytest.raises(UserError, match="--repeat must be between 1 and 20, got 0"):
        opts(repeat=0)


def test_the_cli_refuses_a_bad_repeat_before_starting_anything(tmp_path):
    r = CliRunner().invoke(main, ["bench", "migration", "--quick", "--repeat", "0", "--home", str(tmp_path)],
                           standalone_mode=False, catch_exceptions=True)
    assert isinstance(r.exception, UserError) and "--repeat must be between 1 and 20" in str(r.exception)
    assert list(tmp_path.iterdir()) == []
