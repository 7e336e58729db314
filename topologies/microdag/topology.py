"""Shukla & Simmhan's micro-DAGs (Fig. 5) with the five modelled tasks, our reading of the lost figure
(same as pycontrol/sizing/dags/*.yaml, whose task names are the component ids here, so an allocation
maps onto --set workload.par.<id>=N):

- Linear:  source -> X -> P -> T -> B -> F -> sink
- Diamond: source -> X -> {P, T, B, F} -> sink
- Star:    source -> {B, T} -> X -> {P, F} -> sink

X parse XML, P Pi, T table lookup, B blob download, F batched file write. The source emits one opaque
10-byte field at workload.rate (default 10 t/s); B and T get more threads since they wait on I/O.
"""

from streamparse import Topology

from topologies.common.feed import feed_spout
from topologies.microdag.bolts import (BlobDownloadBolt, FileWriteBolt, PiBolt, SinkBolt, TableLookupBolt,
                                       XmlParseBolt)

CONFIG = {"topology.workers": 4, "workload.rate": 10, "workload.tuple.bytes": 10}


class MicroLinear(Topology):
    """Micro-DAG Linear: source -> X -> P -> T -> B -> F -> sink."""

    config = CONFIG
    source = feed_spout("generated", ["payload"])
    X = XmlParseBolt.spec(inputs=[source], par=1)
    P = PiBolt.spec(inputs=[X], par=1)
    T = TableLookupBolt.spec(inputs=[P], par=4)
    B = BlobDownloadBolt.spec(inputs=[T], par=8)
    F = FileWriteBolt.spec(inputs=[B], par=1)
    sink = SinkBolt.spec(inputs=[F], par=1)


class MicroDiamond(Topology):
    """Micro-DAG Diamond: source -> X -> {P, T, B, F} -> sink."""

    config = CONFIG
    source = feed_spout("generated", ["payload"])
    X = XmlParseBolt.spec(inputs=[source], par=1)
    P = PiBolt.spec(inputs=[X], par=1)
    T = TableLookupBolt.spec(inputs=[X], par=4)
    B = BlobDownloadBolt.spec(inputs=[X], par=8)
    F = FileWriteBolt.spec(inputs=[X], par=1)
    sink = SinkBolt.spec(inputs=[P, T, B, F], par=1)


class MicroStar(Topology):
    """Micro-DAG Star: source -> {B, T} -> X -> {P, F} -> sink."""

    config = CONFIG
    source = feed_spout("generated", ["payload"])
    B = BlobDownloadBolt.spec(inputs=[source], par=8)
    T = TableLookupBolt.spec(inputs=[source], par=4)
    X = XmlParseBolt.spec(inputs=[B, T], par=1)
    P = PiBolt.spec(inputs=[X], par=1)
    F = FileWriteBolt.spec(inputs=[X], par=1)
    sink = SinkBolt.spec(inputs=[P, F], par=1)
