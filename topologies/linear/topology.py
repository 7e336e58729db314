"""Linear template (N-Storm Fig. 7): source -> bolt1 (12, shuffle) -> bolt2 (24, fields key), 8 workers."""

from streamparse import Grouping, Topology

from topologies.common.feed import feed_spout
from topologies.linear.bolts import Stage1Bolt, Stage2Bolt


class Linear(Topology):
    """Linear template: source -> bolt1 (12) -> bolt2 (24, fields key); workload.cost1.us/cost2.us, tuple.bytes."""

    config = {"topology.workers": 8, "workload.tuple.bytes": 100}
    source = feed_spout("generated", ["key", "payload"])
    bolt1 = Stage1Bolt.spec(inputs=[source], par=12)
    bolt2 = Stage2Bolt.spec(inputs={bolt1: Grouping.fields("key")}, par=24)
