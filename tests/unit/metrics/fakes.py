"""Stand-ins for the REST API and ZooKeeper, replaying recorded answers."""

from __future__ import annotations

from dataclasses import dataclass

from kazoo.client import KazooState
from kazoo.exceptions import ConnectionLoss, NoNodeError

from pycontrol.metrics.zk import MetricsZk


class RecordedRest:
    def __init__(self, rec: dict):
        self.rec = rec

    def topologies(self):
        t = self.rec["rest"]["topology"]
        return [{"id": t["id"], "name": t["name"]}]

    def topology(self, topo_id, window=":all-time", sys=False):
        return self.rec["rest"]["topology"]

    def component(self, topo_id, component, window=":all-time"):
        return self.rec["rest"]["components"][component]

    def supervisors(self):
        return self.rec["rest"]["supervisors"]


@dataclass
class Stat:
    mzxid: int


class FakeKazoo:
    """The few kazoo calls MetricsZk makes, over a dict of path -> bytes."""

    def __init__(self, nodes: dict[str, bytes] | None = None):
        self.nodes = dict(nodes or {})
        self.versions: dict[str, int] = {p: 1 for p in self.nodes}
        self.listeners = []
        self.fail = False

    def add_listener(self, fn):
        self.listeners.append(fn)

    def start_async(self):
        for fn in self.listeners:
            fn(KazooState.CONNECTED)

    def set_state(self, state):
        for fn in self.listeners:
            fn(state)

    def stop(self):
        pass

    def close(self):
        pass

    def retry(self, fn, *args):
        return fn(*args)

    def exists(self, path):
        return path in self.nodes or any(p.startswith(path + "/") for p in self.nodes)

    def get_children(self, path):
        if self.fail:
            raise ConnectionLoss()
        kids = {p[len(path) + 1:].split("/")[0] for p in self.nodes if p.startswith(path + "/")}
        if not kids and path not in self.nodes:
            raise NoNodeError()
        return sorted(kids)

    def get(self, path):
        if path not in self.nodes:
            raise NoNodeError()
        return self.nodes[path], Stat(self.versions[path])

    def put(self, path, data: bytes):
        self.nodes[path] = data
        self.versions[path] = self.versions.get(path, 0) + 1

    def delete(self, path):
        self.nodes.pop(path, None)


def zk_from_recording(rec: dict) -> tuple[MetricsZk, FakeKazoo]:
    base = f"/nonstop/metrics/{rec['topology_id']}"
    fake = FakeKazoo({f"{base}/{name}": text.encode() for name, text in rec["znodes"].items()})
    zk = MetricsZk("fake:2181", client=fake)
    zk.start(0)
    return zk, fake
