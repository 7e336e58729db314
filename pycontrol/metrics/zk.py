"""Reads the workers' metrics documents from ZooKeeper (kazoo).

The client reconnects by itself for as long as it lives (a ZooKeeper restart is a pause, not an
error); a read during an outage returns a reading with `error` set instead of raising. A daemon that
already holds a session (the controller's) lends it with `MetricsZk.sharing`: one session, not two. A malformed
document, or one of a version this reader does not know, is logged once and skipped.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field

from kazoo.client import KazooClient, KazooState
from kazoo.exceptions import KazooException, NoAuthError, NoNodeError
from kazoo.retry import RetryFailedError

from pycontrol import zk
from pycontrol.wire.metrics_document import DocumentError, Skipped, WorkerDoc, parse_document
from pycontrol.wire.paths import METRICS
from pycontrol.zk import denied_message
from pycontrol.zkauth import ZkAuth

log = logging.getLogger(__name__)

DEFAULT_ROOT = METRICS  # the workers publish here (storm-plugins/metrics/SCHEMA.md)


def _failure_name(e: Exception) -> str:
    """The error's name; for retries that ran out, the last failure's ("ConnectionLoss, retried")."""
    if isinstance(e, RetryFailedError) and e.__context__ is not None:
        return f"{e.__context__.__class__.__name__}, retried"
    return e.__class__.__name__


@dataclass
class ZkReading:
    """One topology's documents by worker ("host:port"), what was skipped, and an error if ZooKeeper
    could not be read at all."""
    topology_id: str
    docs: dict[str, WorkerDoc] = field(default_factory=dict)
    skipped: list[Skipped] = field(default_factory=list)
    error: str | None = None


class MetricsZk:
    def __init__(self, hosts: str, root: str = DEFAULT_ROOT, timeout_s: float = 10.0,
                 client: KazooClient | None = None, auth: ZkAuth | None = None, owned: bool = True):
        """`client`: one to use instead of a new one; `owned`: whether start and stop are this reader's
        (False for a session lent by its owner, see `sharing`)."""
        self.root = root.rstrip("/")
        self.client = client or zk.new_client(hosts, timeout_s, auth)
        self.owned = owned
        self.hosts = hosts
        self.auth = auth
        self._retry = zk.quick_retry()   # a round reports an error rather than wait through an outage
        self._connected = threading.Event()
        self._stopping = False
        self._logged: dict[str, int] = {}  # path -> version of the bad document last logged
        self.client.add_listener(self._on_state)

    @classmethod
    def sharing(cls, client: KazooClient, root: str = DEFAULT_ROOT, auth: ZkAuth | None = None) -> MetricsZk:
        """A reader on a started session its owner keeps (and stops): reads only, so the owner's ACLs and
        retries do not matter to it."""
        return cls(zk.hosts_text(client), root, client=client, auth=auth, owned=False)

    def _on_state(self, state: str) -> None:
        # Runs on kazoo's thread: only record and log, never block. A lent session's owner logs its states.
        if state == KazooState.CONNECTED:
            self._connected.set()
            if self.owned:
                log.info("metrics collector connected to ZooKeeper %s", self.hosts)
        else:
            self._connected.clear()
            if self._stopping or not self.owned:
                return
            log.warning("metrics collector: ZooKeeper connection %s (kazoo keeps reconnecting)", state)

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def start(self, wait_s: float = 10.0) -> bool:
        """Connect in the background; True if connected within wait_s (reads before that report an error)."""
        if not self.owned:
            if self.client.connected:   # its listener saw CONNECTED before this reader was added
                self._connected.set()
            return self._connected.wait(wait_s)
        self.client.start_async()
        return self._connected.wait(wait_s)

    def wait_connected(self, wait_s: float) -> bool:
        return self._connected.wait(wait_s)

    def stop(self) -> None:
        self._stopping = True
        if not self.owned:
            self.client.remove_listener(self._on_state)
            return
        try:
            self.client.stop()
            self.client.close()
        except KazooException:
            pass

    def topology_ids(self) -> list[str]:
        try:
            return sorted(self._retry(self.client.get_children, self.root))
        except NoNodeError:
            return []
        except KazooException as e:
            log.debug("listing %s failed: %r", self.root, e)
            return []

    def _failure(self, e: KazooException, verb: str, path: str) -> str:
        """What a reading's error says when ZooKeeper refused or failed to `verb` `path`."""
        if isinstance(e, NoAuthError):
            return denied_message(self.hosts, verb, path, self.auth)
        return f"ZooKeeper {self.hosts}: {_failure_name(e)}"

    def read(self, topology_id: str) -> ZkReading:
        out = ZkReading(topology_id)
        base = f"{self.root}/{topology_id}"
        if not self.connected:
            out.error = f"not connected to ZooKeeper {self.hosts}"
            return out
        try:
            children = self._retry(self.client.get_children, base)
        except NoNodeError:
            return out  # no worker publishes (yet)
        except KazooException as e:
            out.error = self._failure(e, "list", base)
            return out
        for name in sorted(children):
            path = f"{base}/{name}"
            try:
                data, stat = self._retry(self.client.get, path)
            except NoNodeError:
                continue  # the worker went away between the two reads
            except KazooException as e:
                out.error = self._failure(e, "read", path)
                return out
            try:
                doc = parse_document(data)
                if doc.topology_id != topology_id or f"{doc.host}-{doc.port}" != name:
                    raise DocumentError(f"document of {doc.topology_id} {doc.host}-{doc.port} under {path}")
            except DocumentError as e:
                out.skipped.append(Skipped(path, str(e)))
                if self._logged.get(path) != stat.mzxid:  # once per written version, not every round
                    self._logged[path] = stat.mzxid
                    log.warning("skipping metrics document %s: %s", path, e)
                continue
            out.docs[doc.worker] = doc
        return out
