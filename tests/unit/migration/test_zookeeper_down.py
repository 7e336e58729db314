"""Migration requests while the ZooKeeper connection is down: refused at once with a clear message,
nothing queued in the client (kazoo would otherwise hold the request and send it once ZooKeeper is
back, long after the caller gave up)."""

import time

import pytest
from kazoo.client import KazooClient

from pycontrol.errors import UserError
from pycontrol.migration.migrate import migrate, wait_decision, write_plan
from pycontrol.storm.rest import StormRest
from pycontrol.wire.executor import ExecutorId


@pytest.fixture
def disconnected():
    # A real client that is not connected (never started): exactly what a client looks like to the
    # caller while its connection is suspended.
    client = KazooClient(hosts="127.0.0.1:9")
    yield client
    client.close()


def test_a_plan_is_not_written_and_nothing_is_queued(disconnected):
    with pytest.raises(UserError, match=r"no connection to ZooKeeper at 127\.0\.0\.1:9: the plan for t1 was "
                                        r"not written; nothing moves"):
        write_plan(disconnected, "t1", {ExecutorId(3, 3): ("127.0.0.12", 6701)})
    assert len(disconnected._queue) == 0


def test_migrate_fails_before_asking_the_rest_api(disconnected):
    # The UI address is unreachable: reaching it would raise a RestError instead.
    rest = StormRest("http://127.0.0.1:9", timeout_s=0.5)
    with pytest.raises(UserError, match="no connection to ZooKeeper .*no plan written for t1; nothing moves"):
        migrate(disconnected, rest, "t1", ExecutorId(3, 3), ("127.0.0.12", 6701))


def test_waiting_for_a_decision_ends_at_its_deadline_and_names_the_cause(disconnected):
    t0 = time.monotonic()
    with pytest.raises(UserError, match=r"no decision on plan v4 of t1 after 0 s: the connection to ZooKeeper "
                                        r"at 127\.0\.0\.1:9 is down \(the plan was written"):
        wait_decision(disconnected, "t1", "t1-1-1", 4, timeout_s=0.3, poll_s=0.05)
    assert time.monotonic() - t0 < 2
    assert len(disconnected._queue) == 0
