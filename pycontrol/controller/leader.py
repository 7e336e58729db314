"""One active controller per cluster: a ZooKeeper lock; losing the session means losing the lead."""

from __future__ import annotations

import logging
import socket

from kazoo.client import KazooClient, KazooState
from kazoo.exceptions import LockTimeout

from pycontrol import zk

log = logging.getLogger(__name__)
LOCK_PATH = f"{zk.CONTROLLER}/leader"


class Leadership:
    def __init__(self, client: KazooClient, identifier: str | None = None, path: str = LOCK_PATH):
        self.client = client
        self.identifier = identifier or f"{socket.gethostname()}"
        self.lock = client.Lock(path, self.identifier)
        self._lost = False
        client.add_listener(self._on_state)

    def _on_state(self, state: str) -> None:
        # SUSPENDED: we may still hold the lock, but must not act until we know; LOST: we do not.
        if state in (KazooState.SUSPENDED, KazooState.LOST):
            self._lost = True

    def acquire(self, timeout_s: float) -> bool:
        """Try to become the leader; False after timeout_s (never blocks forever: kazoo #282)."""
        try:
            got = self.lock.acquire(timeout=timeout_s)
        except LockTimeout:
            return False
        if got:
            self._lost = False
            log.info("controller %s is the leader", self.identifier)
        return bool(got)

    def is_leader(self) -> bool:
        return self.lock.is_acquired and not self._lost and self.client.state == KazooState.CONNECTED

    def release(self) -> None:
        try:
            self.lock.release()
        except Exception:  # released on a dead session: the ephemeral node is gone anyway
            log.debug("lock release failed", exc_info=True)

    def contenders(self) -> list[str]:
        return list(self.lock.contenders())
