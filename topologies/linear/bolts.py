"""Stages of the linear template: CPU cost per tuple (workload.cost1.us / cost2.us), tuple size."""

from __future__ import annotations

from streamparse import Bolt

from topologies.common.cost import spin_micros


def make_payload(seed: int, size: int) -> str:
    """Exactly `size` ASCII characters, like the Java ItemMaker.payload."""
    head = f"{seed}:"
    body = "".join(chr(ord("a") + (i % 26)) for i in range(len(head), size))
    return (head + body)[:size]


class Stage1Bolt(Bolt):
    """(key, payload) -> spend workload.cost1.us of CPU -> (key, payload of workload.tuple.bytes)."""

    outputs = ["key", "payload"]

    def initialize(self, storm_conf, context):
        self.cost_us = float(storm_conf.get("workload.cost1.us", 100))
        self.payload = make_payload(int(self.task_id or 0), int(storm_conf.get("workload.tuple.bytes", 100)))

    def process(self, tup):
        spin_micros(self.cost_us)
        self.emit([tup.values[0], self.payload])


class Stage2Bolt(Bolt):
    """Terminal stage: spend workload.cost2.us of CPU, then ack."""

    outputs = []

    def initialize(self, storm_conf, context):
        self.cost_us = float(storm_conf.get("workload.cost2.us", 10))

    def process(self, tup):
        spin_micros(self.cost_us)
