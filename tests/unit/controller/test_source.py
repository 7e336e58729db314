from pycontrol.controller.clock import ManualClock
from pycontrol.controller.source import ModelSource
from pycontrol.storm.rest import RestError
from tests.unit.controller.fakes import model


def flaky(answers):
    """Returns (or raises) the next answer on each call."""
    calls = []

    def collect_all():
        a = answers[min(len(calls), len(answers) - 1)]
        calls.append(a)
        if isinstance(a, Exception):
            raise a
        return a
    return collect_all, calls


def test_rest_outages_are_retried_with_exponential_backoff_on_the_clock():
    good = [model({"[1,1]": "h:1"})]
    fn, calls = flaky([RestError("UI down"), RestError("UI down"), good])
    clock = ManualClock(0)
    got = ModelSource(fn, clock, attempts=4, backoff_s=1, max_backoff_s=8).collect()
    assert got.error is None and got.models == good and got.attempts == 3
    assert clock.now() == 1 + 2          # waited 1 s, then 2 s


def test_after_the_last_attempt_the_error_is_returned_never_raised():
    fn, calls = flaky([RestError("UI down")])
    clock = ManualClock(0)
    got = ModelSource(fn, clock, attempts=3, backoff_s=1, max_backoff_s=1.5).collect()
    assert got.models == [] and "UI down" in got.error and got.attempts == 3 and len(calls) == 3
    assert clock.now() == 1 + 1.5        # capped


def test_unreadable_zookeeper_is_retried_and_the_models_come_back_marked():
    broken = [model({"[1,1]": "h:1"}, errors=["not connected to ZooKeeper z:2181"]), model({"[1,1]": "h:1"}, name="ok")]
    fn, calls = flaky([broken])
    got = ModelSource(fn, ManualClock(0), attempts=2).collect()
    assert len(calls) == 2 and "wc: not connected to ZooKeeper" in got.error
    assert [m.name for m in got.models] == ["wc", "ok"]     # each topology is judged on its own data
