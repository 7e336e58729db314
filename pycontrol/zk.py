"""The control plane's ZooKeeper access: one place that configures kazoo (retries, timeouts,
connection-state logging) and the project's znode layout."""

from __future__ import annotations

import json
import logging
from typing import Any

from kazoo.client import KazooClient, KazooState
from kazoo.exceptions import NoNodeError
from kazoo.handlers.threading import KazooTimeoutError
from kazoo.retry import KazooRetry

from pycontrol.errors import UserError

log = logging.getLogger(__name__)

ROOT = "/nonstop"
PLANS = f"{ROOT}/plans"            # /plans/<topology>: placement plans for the plan-following scheduler
DECISIONS = f"{ROOT}/decisions"    # /decisions/<topology>: what a scheduler did and why
CONTROLLER = f"{ROOT}/controller"  # the controller daemon's state and leader lock


def connect(hosts: str, timeout_s: float = 10.0) -> KazooClient:
    """A started client that retries lost connections forever and each operation a few times."""
    client = KazooClient(hosts=hosts, timeout=timeout_s,
                         connection_retry=KazooRetry(max_tries=-1, delay=0.2, max_delay=5),
                         command_retry=KazooRetry(max_tries=5, delay=0.2, max_delay=2))

    def on_state(state: str) -> None:
        if client._stopped.is_set():  # our own stop(): the end of the session is expected
            return
        if state == KazooState.LOST:
            log.warning("ZooKeeper session lost (%s); kazoo reconnects with a new session", hosts)
        elif state == KazooState.SUSPENDED:
            log.warning("ZooKeeper connection suspended (%s)", hosts)

    client.add_listener(on_state)
    try:
        client.start(timeout=timeout_s)
    except KazooTimeoutError as e:
        client.close()
        raise UserError(f"ZooKeeper at {hosts} unreachable within {timeout_s:.0f} s") from e
    return client


def hosts_text(client: KazooClient) -> str:
    return ",".join(f"{h}:{p}" for h, p in client.hosts)


def require_connected(client: KazooClient, consequence: str) -> None:
    """Refuse a request on a client whose connection is down. kazoo would queue it and block the caller
    until ZooKeeper is back, then send it: a plan written long after its author gave up."""
    if not client.connected:
        raise UserError(f"no connection to ZooKeeper at {hosts_text(client)}: {consequence}")


def read_json(client: KazooClient, path: str) -> tuple[Any, int] | None:
    """(document, znode version), or None if the znode does not exist."""
    try:
        data, stat = client.get(path)
    except NoNodeError:
        return None
    return (json.loads(data.decode()) if data else None), stat.version


def write_json(client: KazooClient, path: str, doc: Any, expected_version: int | None = None) -> int:
    """Create or overwrite; with expected_version, a compare-and-set (BadVersionError if someone
    else wrote in between). Returns the new version."""
    data = json.dumps(doc, sort_keys=True).encode()
    if expected_version is None:
        if client.exists(path) is None:
            client.create(path, data, makepath=True)
            return 0
        return client.set(path, data).version
    return client.set(path, data, version=expected_version).version
