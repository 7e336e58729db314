"""Micro-DAG bolts: each applies its task to every tuple and passes the payload on (selectivity 1:1).

Settings (topology conf): workload.xml.records, workload.pi.iterations / workload.pi.digits,
workload.filewrite.batch / workload.filewrite.line.bytes, workload.blob.bytes / workload.blob.latency.ms,
workload.table.rows / workload.table.latency.ms.
"""

from __future__ import annotations

import os
import tempfile

from streamparse import Bolt

from topologies.common.snapshot import MEASURE_DIR_KEY
from topologies.microdag import tasks


class _PassOn(Bolt):
    outputs = ["payload"]

    def process(self, tup):
        self.work(tup.values[0])
        self.emit([tup.values[0]])

    def work(self, payload: str) -> None:
        raise NotImplementedError


class XmlParseBolt(_PassOn):
    def initialize(self, storm_conf, context):
        self.document = tasks.make_xml_document(int(storm_conf.get("workload.xml.records", 100)))

    def work(self, payload):
        tasks.parse_xml(self.document)


class PiBolt(_PassOn):
    def initialize(self, storm_conf, context):
        self.iterations = int(storm_conf.get("workload.pi.iterations", 15))
        self.digits = int(storm_conf.get("workload.pi.digits", 1000))

    def work(self, payload):
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

    def work(self, payload):
        tasks.blob_download(self.blob_bytes, self.latency_s)


class TableLookupBolt(_PassOn):
    def initialize(self, storm_conf, context):
        self.table = tasks.TableStandIn(int(storm_conf.get("workload.table.rows", 20_000)),
                                        latency_s=float(storm_conf.get("workload.table.latency.ms", 300)) / 1000)

    def work(self, payload):
        self.table.lookup(payload)


class SinkBolt(Bolt):
    """End of every micro-DAG: acks (latency is measured where the tuple tree completes, at the spout)."""

    outputs = []

    def process(self, tup):
        pass
