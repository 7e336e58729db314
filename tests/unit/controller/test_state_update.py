from dataclasses import replace

import pytest

from pycontrol.controller.state_store import StateStore
from pycontrol.errors import UserError
from tests.unit.controller.fakes import FakeKazoo


def test_operator_updates_retry_over_concurrent_writes_and_fence_out_the_daemon():
    store = StateStore(FakeKazoo(), "/ctl/state")
    daemon_state, daemon_version = store.load()
    writes = []

    def pause_while_someone_writes(s):
        if not writes:   # the first attempt loses a race with another writer
            writes.append(store.save(replace(store.load()[0], cycle=9), store.load()[1]))
        return replace(s, paused=True)

    assert store.update(pause_while_someone_writes).paused
    state, _ = store.load()
    assert state.paused and state.cycle == 9          # the other write is kept, the pause applied on top
    with pytest.raises(Exception, match="another controller is active"):
        store.save(daemon_state, daemon_version)      # the daemon's next save is refused; it re-reads


def test_an_update_that_changes_nothing_writes_nothing_and_endless_races_give_up():
    kazoo = FakeKazoo()
    store = StateStore(kazoo, "/ctl/state")
    store.load()
    store.update(lambda s: s)
    assert kazoo.version["/ctl/state"] == 0

    def always_raced(s):
        store.save(replace(store.load()[0], cycle=store.load()[0].cycle + 1), store.load()[1])
        return replace(s, paused=True)
    with pytest.raises(UserError, match="kept changing during 3 attempts"):
        store.update(always_raced, attempts=3)
