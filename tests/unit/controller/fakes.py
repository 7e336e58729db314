"""Small stand-ins for the controller's tests: hand-built live models, an in-memory ZooKeeper for the
state store, a cluster that applies plans, and a planner that returns what it is told."""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx
from kazoo.exceptions import BadVersionError, NodeExistsError, NoNodeError, RolledBackError

from pycontrol.controller.actions import Move
from pycontrol.controller.planner import Plan, PlanningError
from pycontrol.wire.decision_document import Decision
from pycontrol.model.live import STATUS_OK, LiveModel, NodeState, WorkerState

PERIOD_S = 5


def model(placement: dict[str, str], traffic: dict[tuple[str, str], float] | None = None, *,
          name: str = "wc", components: dict[str, str] | None = None, dag: list[tuple[str, str]] | None = None,
          cpu: dict[str, float] | None = None, worker_load: dict[str, float] | None = None,
          node_cpus: int = 4, node_busy: dict[str, float] | None = None, now_s: float = 1000.0,
          doc_age_s: float = 1.0, status: str = "ACTIVE", worker_status: dict[str, str] | None = None,
          capacity: dict[str, float] | None = None, queues: dict[str, int] | None = None,
          errors: list[str] | None = None, unmovable: dict[str, str] | None = None) -> LiveModel:
    """A live model: executor -> "host:port", executor-pair traffic in tuples/s. Components default
    to the executor's first task's letter group: pass `components` (executor -> component) to name them."""
    components = components or {e: "c" for e in placement}
    cpu, capacity, queues = cpu or {}, capacity or {}, queues or {}
    comp = nx.DiGraph()
    for c in sorted(set(components.values())):
        comp.add_node(c, type="bolt", executors=None, tasks=None, capacity=None)
    for u, v in dag or []:
        comp.add_edge(u, v, inputs=[], grouping="shuffle", tuples_per_s=0.0)
    ex = nx.DiGraph()
    for e, slot in placement.items():
        ex.add_node(e, component=components[e], worker=slot, node=slot.rpartition(":")[0],
                    cpu_cores=cpu.get(e), capacity=capacity.get(e), queue_length=queues.get(e, 0),
                    queue_capacity=1024, queue_fill=queues.get(e, 0) / 1024, measured=True)
    for (u, v), r in (traffic or {}).items():
        ex.add_edge(u, v, tuples_per_s=r, tuples=int(r * PERIOD_S), weight=r)
    slots = sorted(set(placement.values()))
    worker_load = worker_load or {}
    worker_status = worker_status or {}
    workers = {s: WorkerState(s, s.rpartition(":")[0], int(s.rpartition(":")[2]), worker_status.get(s, STATUS_OK),
                              pid=100, cpu_cores=worker_load.get(s), load_cores=worker_load.get(s),
                              executors=sorted(e for e, w in placement.items() if w == s), doc_age_s=doc_age_s)
               for s in slots}
    hosts = sorted({s.rpartition(":")[0] for s in slots})
    node_busy = node_busy or {}
    nodes = {h: NodeState(h, cpu_count=node_cpus, busy_cores=node_busy.get(h),
                          topology_load_cores=sum(worker_load.get(s, 0.0) for s in slots if s.startswith(h + ":")),
                          workers=[s for s in slots if s.startswith(h + ":")]) for h in hosts}
    return LiveModel(f"{name}-1-1", name, status, int(now_s * 1000), PERIOD_S, 2000.0, comp, ex, workers, nodes,
                     errors=list(errors or []), unmovable=dict(unmovable or {}))


class FakeKazoo:
    """get / exists / create / set with versions, as zk.read_json and zk.write_json use them."""

    @dataclass
    class Stat:
        version: int

    def __init__(self):
        self.data: dict[str, bytes] = {}
        self.version: dict[str, int] = {}

    def get(self, path):
        if path not in self.data:
            raise NoNodeError()
        return self.data[path], self.Stat(self.version[path])

    def exists(self, path):
        if path in self.data:
            return self.Stat(self.version[path])
        return self.Stat(0) if any(p.startswith(path + "/") for p in self.data) else None   # a parent

    def create(self, path, data, makepath=False):
        self.data[path], self.version[path] = data, 0

    def set(self, path, data, version=-1):
        if path not in self.data:
            raise NoNodeError()
        if version != -1 and version != self.version[path]:
            raise BadVersionError()
        self.data[path] = data
        self.version[path] += 1
        return self.Stat(self.version[path])

    def get_children(self, path):
        return sorted({p[len(path) + 1:].split("/")[0] for p in self.data if p.startswith(path + "/")})

    connected = True

    def ensure_path(self, path):
        if path not in self.data:    # parents are implicit here; the path itself is created empty
            self.create(path, b"")

    def delete(self, path):
        if path not in self.data:
            raise NoNodeError()
        del self.data[path], self.version[path]

    def transaction(self):
        return FakeTransaction(self)


class FakeTransaction:
    """check / create / set_data / commit: all or nothing, failures reported as kazoo does (in the results)."""

    def __init__(self, zk: FakeKazoo):
        self.zk, self.ops = zk, []

    def check(self, path, version):
        self.ops.append(("check", path, version, None))

    def create(self, path, data):
        self.ops.append(("create", path, None, data))

    def set_data(self, path, data, version=-1):
        self.ops.append(("set", path, version, data))

    def commit(self):
        zk, failed = self.zk, None
        for i, (op, path, version, _) in enumerate(self.ops):
            if op == "check" and (path not in zk.data or zk.version[path] != version):
                failed = (i, NoNodeError() if path not in zk.data else BadVersionError())
            elif op == "create" and path in zk.data:
                failed = (i, NodeExistsError())
            elif op == "set" and path not in zk.data:
                failed = (i, NoNodeError())
            if failed:
                return [failed[1] if j == failed[0] else RolledBackError() for j in range(len(self.ops))]
        out = []
        for op, path, _, data in self.ops:
            if op == "create":
                zk.create(path, data)
                out.append(path)
            elif op == "set":
                out.append(zk.set(path, data))
            else:
                out.append(True)
        return out


@dataclass
class FakeCluster:
    """Topologies by name; a written plan is decided `decision` and, unless `stuck`, shows in the
    placement after `lag_polls` placement reads."""
    placements: dict[str, dict[str, str]] = field(default_factory=dict)   # name -> executor -> slot
    decision: str = "applied"
    reason: str = ""
    stuck: bool = False
    lag_polls: int = 1
    no_decision: bool = False
    plans: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    system: dict[str, dict[str, str]] = field(default_factory=dict)     # name -> system executors -> slot
    hosts: dict[str, str] = field(default_factory=dict)                 # supervisor id -> host
    on_write: object = None     # called with (topology, moves) before a plan is "written"
    bad_decision: set[str] = field(default_factory=set)                 # topologies whose decision is malformed
    removed: list[str] = field(default_factory=list)                    # topologies whose documents were removed
    list_error: str | None = None                                       # the running list is unreadable
    recorded: set[str] = field(default_factory=set)                      # topologies with a decision record
    _due: dict[str, tuple[int, dict[str, str]]] = field(default_factory=dict)

    def topology_id(self, name):
        return f"{name}-id" if name in self.placements else None

    def topologies(self):
        if self.list_error:
            from pycontrol.storm.rest import RestError
            raise RestError(self.list_error)
        return [{"name": n, "id": f"{n}-id"} for n in sorted(self.placements)]

    def recorded_topologies(self):
        return sorted(self.recorded)

    def remove_documents(self, topology):
        self.recorded.discard(topology)
        self.removed.append(topology)
        return [f"/nonstop/plans/{topology}"]

    def supervisors(self):
        return [{"id": i, "host": h} for i, h in sorted(self.hosts.items())]

    def _name(self, topology_id):
        return topology_id[:-3]

    def placement(self, topology_id, system=False):
        name = self._name(topology_id)
        due = self._due.get(name)
        if due is not None:
            left, moves = due
            if left <= 1:
                sys_execs = self.system.get(name, {})
                self.placements[name].update({e: s for e, s in moves.items() if e not in sys_execs})
                sys_execs.update({e: s for e, s in moves.items() if e in sys_execs})
                del self._due[name]
            else:
                self._due[name] = (left - 1, moves)
        out = dict(self.placements[name])
        if system:
            out.update(self.system.get(name, {}))
        return out

    def write_plan(self, topology, moves):
        if self.on_write:
            self.on_write(topology, moves)
        self.plans.append((topology, dict(moves)))
        if self.decision == "applied" and not self.stuck:
            self._due[topology] = (self.lag_polls, dict(moves))
        return len(self.plans)

    def wait_decision(self, topology, topology_id, version, timeout_s):
        from pycontrol.errors import UserError
        if topology in self.bad_decision:
            from pycontrol.wire.decision_document import BadDocument
            raise BadDocument(f"/nonstop/decisions/{topology} v3: plan_version must be an integer, got 'x'")
        if self.no_decision:
            raise UserError(f"no decision on plan v{version} of {topology} after {timeout_s:.0f} s")
        return Decision(self.decision, self.reason, version, topology_id, "rid", 0, [])


class FakePlanner:
    """Returns the moves it is given (or raises), and remembers what it was asked."""

    def __init__(self, moves: list[Move] | None = None, note: str = "fake plan", error: str | None = None):
        self.moves = moves or []
        self.note = note
        self.error = error
        self.calls: list[tuple[str, set[str]]] = []

    def plan(self, model, policy, pinned):
        self.calls.append((model.name, set(pinned)))
        if self.error:
            raise PlanningError(self.error)
        return Plan(model.name, policy.policy, list(self.moves), self.note)
