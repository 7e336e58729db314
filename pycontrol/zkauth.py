"""Who may touch the suite's znodes: the ZooKeeper digest credentials of a cluster and the ACLs they imply.
Pure: read from storm.yaml keys, no I/O.

The cluster uses Storm's own keys (`storm.zookeeper.auth.scheme: digest`, `storm.zookeeper.auth.payload:
"user:password"`): the same credentials authenticate Storm's daemons and the suite's clients, and the
suite's znodes under /nonstop get the ACL "digest principal of that payload: ALL" and no world access.
Metrics documents may additionally be world-readable (`nonstop.zookeeper.metrics.world.read`)."""

from __future__ import annotations

import base64
import hashlib
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pycontrol.errors import UserError

AUTH_SCHEME = "storm.zookeeper.auth.scheme"
AUTH_PAYLOAD = "storm.zookeeper.auth.payload"
METRICS_WORLD_READ = "nonstop.zookeeper.metrics.world.read"
# The payload a topology's workers use; a secured cluster sets it to its own (pycontrol.cluster.secrets).
TOPOLOGY_AUTH_SCHEME = "storm.zookeeper.topology.auth.scheme"
TOPOLOGY_AUTH_PAYLOAD = "storm.zookeeper.topology.auth.payload"
# The payload of another cluster's ZooKeeper, for commands given --zk HOST:PORT (an environment variable,
# so the password never shows in a process list).
AUTH_ENV = "PYCONTROL_ZK_AUTH"

_USER = re.compile(r"[A-Za-z0-9._-]{1,64}")


@dataclass(frozen=True)
class ZkAuth:
    user: str
    password: str
    metrics_world_read: bool = False

    def __post_init__(self) -> None:
        if not _USER.fullmatch(self.user):
            raise UserError(f"ZooKeeper digest user must be 1-64 letters, digits, '.', '_' or '-', got '{self.user}'")
        if not self.password or ":" in self.password:
            raise UserError("ZooKeeper digest password must be non-empty and contain no ':'")

    def __repr__(self) -> str:  # never the password in a log line or a test failure
        return f"ZkAuth(user={self.user!r}, metrics_world_read={self.metrics_world_read})"

    @property
    def payload(self) -> str:
        """What the client sends to ZooKeeper's digest provider: "user:password"."""
        return f"{self.user}:{self.password}"

    @property
    def digest(self) -> str:
        """ZooKeeper's DigestAuthenticationProvider.generateDigest: base64(sha1("user:password"))."""
        return base64.b64encode(hashlib.sha1(self.payload.encode()).digest()).decode()

    @property
    def acl_id(self) -> str:
        """The principal in an ACL: "user:digest" (scheme digest)."""
        return f"{self.user}:{self.digest}"

    @staticmethod
    def parse(payload: str, metrics_world_read: bool = False) -> ZkAuth:
        """From a "user:password" payload."""
        user, sep, password = str(payload).partition(":")
        if not sep:
            raise UserError("ZooKeeper auth payload must be 'user:password'")
        return ZkAuth(user, password, metrics_world_read)

    @staticmethod
    def from_storm_conf(conf: Mapping[str, Any]) -> ZkAuth | None:
        """The credentials a storm.yaml configures; None when it configures none (an open ZooKeeper)."""
        scheme, payload = conf.get(AUTH_SCHEME), conf.get(AUTH_PAYLOAD)
        if not scheme and not payload:
            return None
        if scheme != "digest":
            raise UserError(f"{AUTH_SCHEME} must be 'digest' (the only scheme the suite supports), got '{scheme}'")
        if not payload:
            raise UserError(f"{AUTH_SCHEME} is digest but {AUTH_PAYLOAD} is not set")
        world = conf.get(METRICS_WORLD_READ, False)
        if not isinstance(world, bool):
            raise UserError(f"{METRICS_WORLD_READ} must be true or false, got '{world}'")
        return ZkAuth.parse(payload, world)


def from_env(environ: Mapping[str, str] = os.environ) -> ZkAuth | None:
    payload = environ.get(AUTH_ENV)
    return ZkAuth.parse(payload) if payload else None
