"""`pycontrol migrate`: ask the plan-following scheduler to move one executor, and follow it through.

The scheduler is the one judge of a plan (executor exists, slot exists and is usable): this module
only spells the request, writes it, and reports what the scheduler decided and when the UI REST API
shows the executor at its new place.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from kazoo.client import KazooClient
from kazoo.exceptions import KazooException, NoNodeError

from pycontrol import zk
from pycontrol.errors import UserError
from pycontrol.storm.placement import placement
from pycontrol.storm.rest import RestError, StormRest
from pycontrol.wire import paths
from pycontrol.wire.decision_document import BadDocument, Decision
from pycontrol.wire.executor import ExecutorId
from pycontrol.wire.plan_document import plan_doc


@dataclass(frozen=True)
class MigrationResult:
    topology: str
    topology_id: str
    executor: str               # "[s,e]"
    source: str | None          # "host:port" before the move (None if the UI did not list it)
    target: str                 # "host:port" as requested
    request_id: str
    plan_version: int
    decision: Decision
    decided_after_s: float      # plan written -> decision written
    visible_after_s: float | None = None   # plan written -> REST shows the executor at the target


def executor_arg(text: str) -> ExecutorId:
    """The executor an operator named (--executor), in any spelling ExecutorId.from_typed takes."""
    try:
        return ExecutorId.from_typed(text)
    except ValueError as e:
        raise UserError(f"--executor: {e}") from None


def where_is(rest: StormRest, topology_id: str, executor: ExecutorId) -> str | None:
    """"host:port" of the executor per the UI REST API, or None if it is not listed."""
    for p in placement(rest, topology_id):
        if p.executor == executor:
            return f"{p.host}:{p.port}"
    return None


def write_plan(client: KazooClient, topology: str, moves: dict[ExecutorId, tuple[str, int]],
               request_id: str | None = None, fence: zk.Fence | None = None) -> tuple[str, int]:
    """Writes the plan znode; returns (request id, znode version the scheduler will decide on). With the
    ZooKeeper connection down it writes nothing and says so (UserError). With a fence, the write is one
    transaction with the fence's check: zk.FencedWrite, and nothing written, once another leader bumped it."""
    rid = request_id or uuid.uuid4().hex[:12]
    path = paths.plan(topology)
    zk.require_connected(client, f"the plan for {topology} was not written; nothing moves")
    try:
        doc = plan_doc(moves, rid)
        version = zk.write_json(client, path, doc) if fence is None else zk.write_json_fenced(client, path, doc, fence)
    except zk.AccessDenied:
        raise  # refused, not lost: nothing was stored, and the message says which credentials
    except KazooException as e:
        # The request may have reached the server before the connection broke.
        raise UserError(f"ZooKeeper connection lost while writing the plan for {topology} ({e.__class__.__name__}): "
                        f"it may or may not be stored; read {path} before asking again") from e
    return rid, version


def read_decision(client: KazooClient, topology: str) -> tuple[Decision, int] | None:
    """The decision znode's decision and version; None if there is none; BadDocument (with the znode
    version in `version`) if its document is not a decision."""
    path = paths.decision(topology)
    try:
        data, stat = client.get(path)
    except NoNodeError:
        return None
    try:
        doc = json.loads(data.decode()) if data else None
        return Decision.from_doc(doc), stat.version
    except (ValueError, UnicodeDecodeError) as e:   # JSONDecodeError and BadDocument are ValueErrors
        bad = BadDocument(f"{path} v{stat.version}: {e}")
        bad.version = stat.version
        raise bad from e


def wait_decision(client: KazooClient, topology: str, topology_id: str, plan_version: int,
                  timeout_s: float, poll_s: float = 0.1,
                  on_bad: Callable[[BadDocument], None] | None = None) -> Decision:
    """Polls the decision znode until it answers plan_version. A malformed document there is passed to
    on_bad (by default ignored) and waited past: the scheduler overwrites it with its decision."""
    deadline = time.monotonic() + timeout_s
    bad: BadDocument | None = None
    while True:
        # Only read while connected: kazoo would hold a read until ZooKeeper is back, past the deadline.
        if client.connected:
            try:
                found = read_decision(client, topology)
            except KazooException:
                found = None
            except BadDocument as e:
                found = None
                if bad is None or bad.version != e.version:
                    bad = e
                    if on_bad is not None:
                        on_bad(e)
            if found is not None and found[0].answers(topology_id, plan_version):
                return found[0]
        if time.monotonic() > deadline:
            if bad is not None:
                raise UserError(f"no decision on plan v{plan_version} of {topology} after {timeout_s:.0f} s; the "
                                f"decision znode held a malformed document: {bad}")
            if not client.connected:
                raise UserError(f"no decision on plan v{plan_version} of {topology} after {timeout_s:.0f} s: the "
                                f"connection to ZooKeeper at {zk.hosts_text(client)} is down (the plan was written; "
                                f"Nimbus decides it once ZooKeeper is back)")
            raise UserError(f"no decision on plan v{plan_version} of {topology} after {timeout_s:.0f} s: is Nimbus "
                            f"running the plan-following scheduler (storm.scheduler)?")
        time.sleep(poll_s)


def wait_visible(rest: StormRest, topology_id: str, executor: ExecutorId, target: str,
                 timeout_s: float, poll_s: float = 0.25) -> None:
    deadline = time.monotonic() + timeout_s
    where = None
    while True:
        try:
            where = where_is(rest, topology_id, executor)
        except RestError:
            where = None
        if where == target:
            return
        if time.monotonic() > deadline:
            raise UserError(f"executor {executor} still at {where} {timeout_s:.0f} s after the "
                            f"plan was applied (expected {target})")
        time.sleep(poll_s)


def migrate(client: KazooClient, rest: StormRest, topology: str, executor: ExecutorId, target: tuple[str, int],
            wait: bool = False, timeout_s: float = 60.0) -> MigrationResult:
    # First, before the REST lookups: without ZooKeeper Nimbus cannot answer them promptly either.
    zk.require_connected(client, f"no plan written for {topology}; nothing moves")
    topology_id = rest.topology_id(topology)
    if topology_id is None:
        raise UserError(f"no topology named '{topology}' (running: {[t['name'] for t in rest.topologies()]})")
    source = where_is(rest, topology_id, executor)
    target_text = f"{target[0]}:{target[1]}"
    t0 = time.monotonic()
    rid, version = write_plan(client, topology, {executor: target})
    decision = wait_decision(client, topology, topology_id, version, timeout_s)
    decided = time.monotonic() - t0
    result = MigrationResult(topology, topology_id, str(executor), source, target_text, rid, version,
                             decision, round(decided, 3))
    if decision.status == "rejected" or not wait:
        return result
    wait_visible(rest, topology_id, executor, target_text, timeout_s)
    return MigrationResult(**{**result.__dict__, "visible_after_s": round(time.monotonic() - t0, 3)})
