"""Reads the workers' metrics documents from ZooKeeper (kazoo).

The client reconnects by itself for as long as it lives (a ZooKeeper restart is a pause, not an
error); a read during an outage returns a reading with `error` set instead of raising. A malformed
document, or one of a version this reader does not know, is logged once and skipped.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field

from kazoo.client import KazooClient, KazooState
from kazoo.exceptions import KazooException, NoAuthError, NoNodeError
from kazoo.retry import KazooRetry

from pycontrol.metrics.schema import DocumentError, WorkerDoc, parse_document
from pycontrol.zk import ROOT, denied_message
from pycontrol.zkauth import ZkAuth

log = logging.getLogger(__name__)

DEFAULT_ROOT = f"{ROOT}/metrics"  # the workers publish here (storm-plugins/metrics/SCHEMA.md)


@dataclass(frozen=True)
class Skipped:
    path: str
    reason: str


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
                 client: KazooClient | None = None, auth: ZkAuth | None = None):
        self.root = root.rstrip("/")
        self.client = client or KazooClient(
            hosts=hosts, timeout=timeout_s, auth_data=[("digest", auth.payload)] if auth else None,
            # Reconnect forever (ZooKeeper restarted), but let a single read give up quickly.
            connection_retry=KazooRetry(max_tries=-1, delay=0.3, max_delay=2.0),
            command_retry=KazooRetry(max_tries=2, delay=0.2, max_delay=1.0))
        self.hosts = hosts
        self.auth = auth
        self._connected = threading.Event()
        self._stopping = False
        self._logged: dict[str, int] = {}  # path -> version of the bad document last logged
        self.client.add_listener(self._on_state)

    def _on_state(self, state: str) -> None:
        # Runs on kazoo's thread: only record and log, never block.
        if state == KazooState.CONNECTED:
            self._connected.set()
            log.info("metrics collector connected to ZooKeeper %s", self.hosts)
        else:
            self._connected.clear()
            if self._stopping:
                return
            log.warning("metrics collector: ZooKeeper connection %s (kazoo keeps reconnecting)", state)

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def start(self, wait_s: float = 10.0) -> bool:
        """Connect in the background; True if connected within wait_s (reads before that report an error)."""
        self.client.start_async()
        return self._connected.wait(wait_s)

    def wait_connected(self, wait_s: float) -> bool:
        return self._connected.wait(wait_s)

    def stop(self) -> None:
        self._stopping = True
        try:
            self.client.stop()
            self.client.close()
        except KazooException:
            pass

    def topology_ids(self) -> list[str]:
        try:
            return sorted(self.client.retry(self.client.get_children, self.root))
        except NoNodeError:
            return []
        except KazooException as e:
            log.debug("listing %s failed: %r", self.root, e)
            return []

    def read(self, topology_id: str) -> ZkReading:
        out = ZkReading(topology_id)
        base = f"{self.root}/{topology_id}"
        if not self.connected:
            out.error = f"not connected to ZooKeeper {self.hosts}"
            return out
        try:
            children = self.client.retry(self.client.get_children, base)
        except NoNodeError:
            return out  # no worker publishes (yet)
        except NoAuthError:
            out.error = denied_message(self.hosts, "list", base, self.auth)
            return out
        except KazooException as e:
            out.error = f"ZooKeeper {self.hosts}: {e.__class__.__name__}"
            return out
        for name in sorted(children):
            path = f"{base}/{name}"
            try:
                data, stat = self.client.retry(self.client.get, path)
            except NoNodeError:
                continue  # the worker went away between the two reads
            except NoAuthError:
                out.error = denied_message(self.hosts, "read", path, self.auth)
                return out
            except KazooException as e:
                out.error = f"ZooKeeper {self.hosts}: {e.__class__.__name__}"
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
