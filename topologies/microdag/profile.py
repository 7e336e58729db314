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


def _harness(name, bolt, what):
    """The harness topology class for one task: source -> `bolt` (task) -> sink."""
    source = feed_spout("generated", ["payload"])
    task = bolt.spec(inputs=[source], par=1)
    sink = JavaBolt.spec(full_class_name=ACK_SINK, args_list=[False], inputs=[task], par=1, outputs=[])
    attrs = {"__module__": __name__, "__qualname__": name,
             "__doc__": f"Profiling harness: source -> {what} (task) -> sink.",
             "config": CONFIG, "source": source, "task": task, "sink": sink}
    # Topology's metaclass collects the specs from the class attributes, as for a class statement.
    return type(Topology)(name, (Topology,), attrs)


ProfileXml = _harness("ProfileXml", XmlParseBolt, "parse XML")
ProfilePi = _harness("ProfilePi", PiBolt, "Pi")
ProfileFileWrite = _harness("ProfileFileWrite", FileWriteBolt, "batched file write")
ProfileBlob = _harness("ProfileBlob", BlobDownloadBolt, "blob download stand-in")
ProfileTable = _harness("ProfileTable", TableLookupBolt, "table lookup stand-in")
