"""A pure-Python sentence source (streamparse Spout), for topologies without the Java FeedSpout.

Reliable: every sentence is emitted with an id and re-emitted if it fails. Task i of n emits lines
i, i+n, ... of workload.input, below workload.total (0 = endless, the file cycles), paced at its
share of workload.rate. It does not measure latency (the Java FeedSpout does).
"""

from __future__ import annotations

import time
from collections import deque

from streamparse import Spout


class SentenceSpout(Spout):
    outputs = ["sentence"]

    def initialize(self, storm_conf, context):
        with open(storm_conf["workload.input"], encoding="utf-8") as f:
            self.lines = [line.rstrip("\n") for line in f]
        if not self.lines:
            raise ValueError(f"workload.input {storm_conf['workload.input']} has no lines")
        tasks = sorted(int(t) for t, c in context["task->component"].items() if c == self.component_name)
        self.index, self.tasks = tasks.index(int(self.task_id)), len(tasks)
        self.total = int(storm_conf.get("workload.total", 0))
        self.interval = self.tasks / float(storm_conf.get("workload.rate", 100))
        self.taken = 0
        self.start = time.monotonic()
        self.replay: deque[int] = deque()

    def next_tuple(self):
        if self.replay:
            g = self.replay.popleft()
        else:
            g = self.index + self.tasks * self.taken
            if (self.total and g >= self.total) or time.monotonic() - self.start < self.taken * self.interval:
                return
            self.taken += 1
        self.emit([self.lines[g % len(self.lines)]], tup_id=g)

    def ack(self, tup_id):
        pass

    def fail(self, tup_id):
        self.replay.append(int(tup_id))
