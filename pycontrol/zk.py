"""The control plane's ZooKeeper access: one place that configures kazoo (retries, timeouts,
connection-state logging, digest auth and the ACL of every znode it creates) and the project's znode
layout."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from kazoo.client import KazooClient, KazooState
from kazoo.exceptions import BadVersionError, KazooException, NoAuthError, NodeExistsError, NoNodeError
from kazoo.handlers.threading import KazooTimeoutError
from kazoo.retry import KazooRetry
from kazoo.security import ACL, Id, Permissions

from pycontrol.errors import UserError
from pycontrol.wire import paths
from pycontrol.zkauth import AUTH_ENV, ZkAuth

log = logging.getLogger(__name__)

# The layout's home is pycontrol.wire.paths; these names stay here for the many callers that read
# them as zk.PLANS etc.
ROOT, PLANS, DECISIONS, CONTROLLER, METRICS = paths.ROOT, paths.PLANS, paths.DECISIONS, paths.CONTROLLER, paths.METRICS


def znode_acl(auth: ZkAuth, path: str = paths.ROOT) -> list[ACL]:
    """The ACL of a znode the suite creates: the cluster's digest principal may do anything, nobody else
    anything; metrics documents are also world-readable when the cluster conf says so."""
    acls = [ACL(Permissions.ALL, Id("digest", auth.acl_id))]
    if auth.metrics_world_read and paths.under_metrics(path):
        acls.append(ACL(Permissions.READ, Id("world", "anyone")))
    return acls


class AccessDenied(UserError, NoAuthError):
    """ZooKeeper refused an operation for lack of (matching) credentials. Still a NoAuthError for code
    that handles kazoo's errors; a UserError so the command line prints its one line."""

    def __init__(self, message: str):
        UserError.__init__(self, message)


def denied_message(hosts: str, op: str, path: str, auth: ZkAuth | None) -> str:
    who = (f"the credentials of user '{auth.user}' do not match its ACL (wrong password, or another "
           f"cluster's secrets?)" if auth is not None else
           f"no credentials were given (the cluster's storm.yaml has no storm.zookeeper.auth.payload, "
           f"or set {AUTH_ENV}=user:password for --zk)")
    return f"ZooKeeper at {hosts} refused to {op} {path}: {who}"


class _Client(KazooClient):
    """A KazooClient whose refusals name the znode and the credentials, and whose creates carry the
    suite's ACL (metrics documents may differ from the default)."""

    def __init__(self, *args, nonstop_auth: ZkAuth | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.nonstop_auth = nonstop_auth

    def _checked(self, op: str, path: str, call, *args, **kwargs):
        try:
            return call(path, *args, **kwargs)
        except NoAuthError as e:
            if isinstance(e, AccessDenied):
                raise
            raise AccessDenied(denied_message(hosts_text(self), op, path, self.nonstop_auth)) from e

    def create(self, path, value=b"", acl=None, *args, **kwargs):
        if acl is None and self.nonstop_auth is not None:
            acl = znode_acl(self.nonstop_auth, path)
        return self._checked("create", path, super().create, value, acl, *args, **kwargs)

    def ensure_path(self, path, *args, **kwargs):
        return self._checked("create", path, super().ensure_path, *args, **kwargs)

    def set(self, path, *args, **kwargs):
        return self._checked("write", path, super().set, *args, **kwargs)

    def delete(self, path, *args, **kwargs):
        return self._checked("delete", path, super().delete, *args, **kwargs)

    def get(self, path, *args, **kwargs):
        return self._checked("read", path, super().get, *args, **kwargs)

    def get_children(self, path, *args, **kwargs):
        return self._checked("list", path, super().get_children, *args, **kwargs)

    def exists(self, path, *args, **kwargs):
        return self._checked("read", path, super().exists, *args, **kwargs)


def new_client(hosts: str, timeout_s: float = 10.0, auth: ZkAuth | None = None) -> KazooClient:
    """The one kazoo configuration, not yet started: it reconnects forever (a ZooKeeper restart is a
    pause), `client.retry` tries an operation a few times, and with auth it authenticates with the digest
    payload and creates every znode with `znode_acl(auth, path)`."""
    return _Client(hosts=hosts, timeout=timeout_s,
                   connection_retry=KazooRetry(max_tries=-1, delay=0.2, max_delay=2),
                   command_retry=KazooRetry(max_tries=5, delay=0.2, max_delay=2),
                   auth_data=[("digest", auth.payload)] if auth else None,
                   default_acl=znode_acl(auth) if auth else None,
                   nonstop_auth=auth)


def quick_retry() -> KazooRetry:
    """For reads that had better report an error than wait through an outage (a metrics round)."""
    return KazooRetry(max_tries=2, delay=0.2, max_delay=1.0)


def connect(hosts: str, timeout_s: float = 10.0, auth: ZkAuth | None = None) -> KazooClient:
    """A started `new_client` that logs when its connection is suspended or its session lost."""
    client = new_client(hosts, timeout_s, auth)

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


# --- fencing: writes that only land while the writer's leader epoch is current ----------------------

class FencedWrite(Exception):
    """A fenced write was refused: the fence znode moved on (another leader since), nothing was written."""


@dataclass(frozen=True)
class Fence:
    path: str       # the epoch znode
    version: int    # its version when the writer gained the lead


def bump_epoch(client: KazooClient, path: str) -> int:
    """Moves the epoch znode on by one version and returns the new version: the epoch of a new leader."""
    client.ensure_path(path)
    return client.set(path, b"").version


def write_json_fenced(client: KazooClient, path: str, doc: Any, fence: Fence) -> int:
    """write_json as one transaction with a check of the fence: FencedWrite (and nothing written) if the
    fence znode is no longer at fence.version. Returns the new version of `path`."""
    data = json.dumps(doc, sort_keys=True).encode()
    for _ in range(2):   # a second pass if the znode was created or deleted between exists() and commit
        tx = client.transaction()
        tx.check(fence.path, fence.version)
        creating = client.exists(path) is None
        if creating:
            parent = path.rsplit("/", 1)[0]
            if parent:   # a transaction cannot make parents; only the first write of a path pays for this
                client.ensure_path(parent)
            tx.create(path, data)
        else:
            tx.set_data(path, data)
        check, result = tx.commit()
        if isinstance(check, (BadVersionError, NoNodeError)):
            raise FencedWrite(f"{fence.path} is past version {fence.version}: another controller leads")
        if isinstance(result, (NodeExistsError, NoNodeError)):
            continue
        if isinstance(result, NoAuthError):
            raise AccessDenied(denied_message(hosts_text(client), "write", path, getattr(client, "nonstop_auth", None)))
        if isinstance(result, Exception):
            raise result
        return 0 if creating else result.version
    raise KazooException(f"{path} kept being created and deleted during a fenced write")


def delete_if_exists(client: KazooClient, path: str) -> bool:
    """True if the znode was there and is now gone."""
    try:
        client.delete(path)
    except NoNodeError:
        return False
    return True
