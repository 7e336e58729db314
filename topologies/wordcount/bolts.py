"""Word count Bolt 1 (split) and Bolt 2 (count), same behaviour as the Java ones."""

from __future__ import annotations

import time

from streamparse import Bolt

from topologies.common.cost import KeyCost, harmonic
from topologies.common.snapshot import MEASURE_DIR_KEY, write_counts
from topologies.common.words import split_words


class SplitSentenceBolt(Bolt):
    """sentence -> one anchored (word) tuple per word (auto-anchored, auto-acked)."""

    outputs = ["word"]

    def process(self, tup):
        for word in split_words(tup.values[0]):
            self.emit([word])


class HeavySplitSentenceBolt(Bolt):
    """Split that also computes H(n) per word, n depending on the word and drifting (KeyCost)."""

    outputs = ["word"]

    def initialize(self, storm_conf, context):
        self.cost = KeyCost.from_conf(storm_conf)
        self.sink = 0.0

    def process(self, tup):
        now_ms = int(time.time() * 1000)
        for word in split_words(tup.values[0]):
            self.sink += harmonic(self.cost.iterations(word, now_ms))
            self.emit([word])


class WordCountBolt(Bolt):
    """Counts words, emits (word, count), writes a counts snapshot on tick tuples when changed."""

    outputs = ["word", "count"]

    def initialize(self, storm_conf, context):
        self.counts: dict[str, int] = {}
        self.tuples = 0
        self.dirty = False
        self.measure_dir = storm_conf.get(MEASURE_DIR_KEY)

    def process(self, tup):
        word = tup.values[0]
        count = self.counts.get(word, 0) + 1
        self.counts[word] = count
        self.tuples += 1
        self.dirty = True
        self.emit([word, count])

    def process_tick(self, tup):
        if self.dirty and self.measure_dir:
            write_counts(self.measure_dir, self.component_name, self.task_id, self.counts, self.tuples)
            self.dirty = False
