"""The model-driven paper's profiling harness, one topology per micro-DAG task (seed 002 §5.2):
source -> task -> sink, the task's parallelism set with --set workload.par.task=τ.

The source is the measuring FeedSpout (one opaque 10-byte field at workload.rate, latency from the
intended emit time to the ack); the sink is a Java bolt that only acks, so neither end costs a Python
process and neither is the bottleneck. `pycontrol model build` submits these with the slot-aware
scheduler so that the task's τ executors have one worker (slot) to themselves.
"""

from streamparse import JavaBolt, Topology

from topologies.common.feed import feed_spout
from topologies.microdag.bolts import BlobDownloadBolt, FileWriteBolt, PiBolt, TableLookupBolt, XmlParseBolt

# Java terminal bolt: acks, emits nothing (io.nonstopstorm.workloads.relay.RelayBolt with emit=false).
ACK_SINK = "io.nonstopstorm.workloads.relay.RelayBolt"
CONFIG = {"topology.workers": 2, "workload.rate": 1, "workload.tuple.bytes": 10}


def _sink(task):
    return JavaBolt.spec(full_class_name=ACK_SINK, args_list=[False], inputs=[task], par=1, outputs=[])


class ProfileXml(Topology):
    """Profiling harness: source -> parse XML (task) -> sink."""

    config = CONFIG
    source = feed_spout("generated", ["payload"])
    task = XmlParseBolt.spec(inputs=[source], par=1)
    sink = _sink(task)


class ProfilePi(Topology):
    """Profiling harness: source -> Pi (task) -> sink."""

    config = CONFIG
    source = feed_spout("generated", ["payload"])
    task = PiBolt.spec(inputs=[source], par=1)
    sink = _sink(task)


class ProfileFileWrite(Topology):
    """Profiling harness: source -> batched file write (task) -> sink."""

    config = CONFIG
    source = feed_spout("generated", ["payload"])
    task = FileWriteBolt.spec(inputs=[source], par=1)
    sink = _sink(task)


class ProfileBlob(Topology):
    """Profiling harness: source -> blob download stand-in (task) -> sink."""

    config = CONFIG
    source = feed_spout("generated", ["payload"])
    task = BlobDownloadBolt.spec(inputs=[source], par=1)
    sink = _sink(task)


class ProfileTable(Topology):
    """Profiling harness: source -> table lookup stand-in (task) -> sink."""

    config = CONFIG
    source = feed_spout("generated", ["payload"])
    task = TableLookupBolt.spec(inputs=[source], par=1)
    sink = _sink(task)
