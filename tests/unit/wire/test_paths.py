from pycontrol import zk
from pycontrol.wire import paths


def test_every_path_is_under_the_suites_root():
    assert paths.plan("wc") == "/nonstop/plans/wc"
    assert paths.decision("wc") == "/nonstop/decisions/wc"
    assert paths.scheduler_record("wc") == "/nonstop/decisions/wc.scheduler"
    assert paths.agent("127.0.0.11") == "/nonstop/agents/127.0.0.11"
    assert paths.worker_metrics("wc-1-1", "127.0.0.11", 6700) == "/nonstop/metrics/wc-1-1/127.0.0.11-6700"
    assert paths.CONTROLLER_DECISIONS == "/nonstop/controller/decisions"
    assert (zk.ROOT, zk.PLANS, zk.DECISIONS, zk.CONTROLLER, zk.METRICS) == (
        paths.ROOT, paths.PLANS, paths.DECISIONS, paths.CONTROLLER, paths.METRICS)


def test_only_the_metrics_subtree_counts_as_metrics():
    assert paths.under_metrics("/nonstop/metrics") and paths.under_metrics("/nonstop/metrics/wc-1-1/h-1")
    assert not paths.under_metrics("/nonstop/metricsx") and not paths.under_metrics("/nonstop/plans/wc")
