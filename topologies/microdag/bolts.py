"""Micro-DAG bolts: each applies its task to every tuple and passes the payload on (selectivity 1:1).

Settings (topology conf): workload.xml.records, workload.pi.iterations / workload.pi.digits,
workload.filewrite.batch / workload.filewrite.line.bytes, workload.blob.bytes / workload.blob.latency.ms,
workload.table.rows / workload.table.latency.ms.

Per-slot limits (slot_limit.py; 0, the default, is no limit): workload.blob.slot.connections and
workload.table.slot.connections (the wait happens holding one of K connections of the worker), and
workload.pi.slot.cores (the computation holds one of K cores of the worker).
"""

from __future__ import annotations

import os
import tempfile
from contextlib import nullcontext

from streamparse import Bolt

from topologies.common.snapshot import MEASURE_DIR_KEY
from topologies.microdag import tasks
from topologies.microdag.slot_limit import SlotLimit


class _PassOn(Bolt):
    outputs = ["payload"]
    limit: SlotLimit | None = None

    def process(self, tup):
        self.work(tup.values[0])
        self.emit([tup.values[0]])

    def work(self, payload: str) -> None:
        raise NotImplementedError

    def slot_limit(self, storm_conf, key: str) -> None:
        """This task's per-slot limit from the conf key (K tokens; 0 or absent: none)."""
        self.limit = SlotLimit.for_component(self.component_name, int(storm_conf.get(key, 0)))

    def holding(self):
        """One of the worker's tokens for this task, or nothing when it has no limit."""
        return self.limit.held() if self.limit is not None else nullcontext()


class XmlParseBolt(_PassOn):
    def initialize(self, storm_conf, context):
        self.document = tasks.make_xml_document(int(storm_conf.get("workload.xml.records", 100)))

    def work(self, payload):
        tasks.parse_xml(self.document)


class PiBolt(_PassOn):
    def initialize(self, storm_conf, context):
        self.iterations = int(storm_conf.get("workload.pi.iterations", 15))
        self.digits = int(storm_conf.get("workload.pi.digits", 1000))
        self.slot_limit(storm_conf, "workload.pi.slot.cores")

    def work(self, payload):
        with self.holding():
            tasks.viete_pi(self.iterations, self.digits)


class FileWriteBolt(_PassOn):
    def initialize(self, storm_conf, context):
        base = storm_conf.get(MEASURE_DIR_KEY) or tempfile.gettempdir()
        self.writer = tasks.BatchedFileWriter(
            os.path.join(base, f"filewrite-{self.component_name}-{self.task_id}"),
            batch=int(storm_conf.get("workload.filewrite.batch", 10_000)),
            line_bytes=int(storm_conf.get("workload.filewrite.line.bytes", 100)))

    def work(self, payload):
        self.writer.add(payload)


class BlobDownloadBolt(_PassOn):
    def initialize(self, storm_conf, context):
        self.blob_bytes = int(storm_conf.get("workload.blob.bytes", 2 * 1024 * 1024))
        self.latency_s = float(storm_conf.get("workload.blob.latency.ms", 500)) / 1000
        self.slot_limit(storm_conf, "workload.blob.slot.connections")

    def work(self, payload):
        with self.holding():
            tasks.blob_download(self.blob_bytes, self.latency_s)


class TableLookupBolt(_PassOn):
    def initialize(self, storm_conf, context):
        self.table = tasks.TableStandIn(int(storm_conf.get("workload.table.rows", 20_000)),
                                        latency_s=float(storm_conf.get("workload.table.latency.ms", 300)) / 1000)
        self.slot_limit(storm_conf, "workload.table.slot.connections")

    def work(self, payload):
        with self.holding():
            self.table.lookup(payload)


class SinkBolt(Bolt):
    """End of every micro-DAG: acks (latency is measured where the tuple tree completes, at the spout)."""

    outputs = []

    def process(self, tup):
        pass
