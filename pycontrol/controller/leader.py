"""One active controller per cluster: a ZooKeeper lock, and a leader epoch that fences plan writes.

The lead follows a small state machine (LeaderCore, pure; Leadership drives it over kazoo):

    STANDBY     --lock acquired, epoch bumped-->  LEADING
    LEADING     --connection SUSPENDED------->    SUSPENDED   (never acts: another may lead by now)
    SUSPENDED   --connection back------------->   RECONNECTED (its lock node is checked next)
    RECONNECTED --lock node still there------->   LEADING     (same session: nobody else could lead)
    RECONNECTED --lock node gone-------------->   EXPIRED
    any         --session LOST---------------->   EXPIRED     (kazoo Lock objects die with the session)
    EXPIRED     --a new Lock object----------->   STANDBY     (contends anew)

A standby takes over when the leader's session ends: its ephemeral lock node goes with it.
"""

from __future__ import annotations

import logging
import socket
import threading

from kazoo.client import KazooClient, KazooState
from kazoo.exceptions import KazooException, LockTimeout

from pycontrol import zk
from pycontrol.wire import paths
from pycontrol.controller.clock import Clock, SystemClock

log = logging.getLogger(__name__)
LOCK_PATH = paths.CONTROLLER_LEADER
EPOCH_PATH = paths.CONTROLLER_EPOCH

# Phases.
STANDBY, LEADING, SUSPENDED, RECONNECTED, EXPIRED = "standby", "leading", "suspended", "reconnected", "expired"
# What the adapter does next.
LEAD, WAIT, VERIFY, NEW_LOCK, CONTEND = "lead", "wait", "verify", "new-lock", "contend"


class LeaderCore:
    """The lead's phase, fed with connection states and the results of the adapter's steps."""

    def __init__(self, clock: Clock):
        self.clock = clock
        self.phase = STANDBY
        self.connected = True
        self.since = clock.now()      # when the phase began
        self.suspended_at: float | None = None

    def _enter(self, phase: str) -> None:
        if phase != self.phase:
            self.phase, self.since = phase, self.clock.now()

    def connection(self, state: str) -> None:
        """A kazoo connection state: CONNECTED, SUSPENDED or LOST."""
        if state == KazooState.SUSPENDED:
            self.connected = False
            if self.phase == LEADING:
                self.suspended_at = self.clock.now()
                self._enter(SUSPENDED)
        elif state == KazooState.LOST:
            self.connected = False
            self._enter(EXPIRED)
        elif state == KazooState.CONNECTED:
            self.connected = True
            if self.phase == SUSPENDED:
                self._enter(RECONNECTED)

    def next_step(self) -> str:
        if not self.connected:
            return WAIT
        return {LEADING: LEAD, RECONNECTED: VERIFY, EXPIRED: NEW_LOCK, STANDBY: CONTEND, SUSPENDED: WAIT}[self.phase]

    def verified(self, lock_node_exists: bool) -> None:
        if self.phase == RECONNECTED:
            self._enter(LEADING if lock_node_exists else EXPIRED)

    def new_lock(self) -> None:
        if self.phase == EXPIRED:
            self._enter(STANDBY)

    def acquired(self, got: bool) -> bool:
        """The result of contending; True if this made us the leader."""
        if not got or self.phase != STANDBY:
            return False
        if not self.connected:   # the connection broke meanwhile: check the node once it is back
            self._enter(SUSPENDED)
            return False
        self._enter(LEADING)
        return True

    def resigned(self) -> None:
        self._enter(EXPIRED)

    def leading(self) -> bool:
        return self.phase == LEADING and self.connected


class Leadership:
    """The state machine over a kazoo client: a lock under `path` and the epoch znode `epoch_path`."""

    def __init__(self, client: KazooClient, identifier: str | None = None, path: str = LOCK_PATH,
                 epoch_path: str = EPOCH_PATH, clock: Clock | None = None):
        self.client = client
        self.identifier = identifier or f"{socket.gethostname()}"
        self.path = path
        self.epoch_path = epoch_path
        self.lock = client.Lock(path, self.identifier)
        self.core = LeaderCore(clock or SystemClock())
        self.epoch: int | None = None     # the epoch znode's version when we last gained the lead
        self._mutex = threading.Lock()    # the listener runs on kazoo's thread
        client.add_listener(self._on_state)

    def _on_state(self, state: str) -> None:
        with self._mutex:
            was = self.core.phase
            self.core.connection(state)
            if was == LEADING and self.core.phase != LEADING:
                log.warning("controller %s: %s; not acting until the lead is confirmed", self.identifier,
                            "connection suspended" if self.core.phase == SUSPENDED else "session lost")

    def _step(self) -> str:
        with self._mutex:
            return self.core.next_step()

    def acquire(self, timeout_s: float) -> bool:
        """One step towards the lead; True while leading. Never blocks past timeout_s (kazoo #282)."""
        step = self._step()
        if step == VERIFY:
            try:
                exists = self.lock.node is not None and self.client.exists(f"{self.path}/{self.lock.node}") is not None
            except KazooException:
                return False
            with self._mutex:
                self.core.verified(exists)
            if exists:
                log.info("controller %s leads again after the connection came back (epoch %s)", self.identifier,
                         self.epoch)
                return True
            step = self._step()
        if step == NEW_LOCK:
            self.lock = self.client.Lock(self.path, self.identifier)
            with self._mutex:
                self.core.new_lock()
            step = self._step()
        if step == LEAD:
            return True
        if step != CONTEND:
            return False
        try:
            got = bool(self.lock.acquire(timeout=timeout_s))
        except LockTimeout:
            got = False
        if got:
            try:
                self.epoch = zk.bump_epoch(self.client, self.epoch_path)
            except KazooException as e:
                log.warning("controller %s holds the lock but cannot bump the epoch (%r); contending anew",
                            self.identifier, e)
                self._drop_lock()
                return False
        with self._mutex:
            gained = self.core.acquired(got)
        if gained:
            log.info("controller %s is the leader (epoch %d)", self.identifier, self.epoch)
        return gained

    def is_leader(self) -> bool:
        with self._mutex:
            return self.core.leading()

    def fence(self) -> zk.Fence | None:
        """The fence of our plan writes: the epoch znode at the version we set when gaining the lead."""
        return None if self.epoch is None else zk.Fence(self.epoch_path, self.epoch)

    def _drop_lock(self) -> None:
        try:
            self.lock.release()
        except Exception:  # noqa: BLE001 - released on a dead session: the ephemeral node is gone anyway
            log.debug("lock release failed", exc_info=True)
        with self._mutex:
            self.core.resigned()

    def release(self) -> None:
        self._drop_lock()

    def contenders(self) -> list[str]:
        """Who holds and who waits for the lock; [] (unknown) while disconnected, where kazoo would hold
        the read until ZooKeeper is back."""
        if not self.client.connected:
            return []
        return list(self.lock.contenders())
