"""A word count bolt that hands its counts over when one of its executors moves live."""

from __future__ import annotations

from topologies.common.handoff import StateHandoff
from topologies.wordcount.bolts import WordCountBolt

# Component conf: the bolt's snapshot_state raises, so a move of it shows the refused handoff.
REFUSE_KEY = "workload.handoff.refuse"


class HandoffCountBolt(StateHandoff, WordCountBolt):
    """WordCountBolt whose counts and tuple total move with its executor (snapshot taken between two tuples)."""

    def initialize(self, storm_conf, context):
        super().initialize(storm_conf, context)
        self.refuse = storm_conf.get(REFUSE_KEY) is True

    def snapshot_state(self):
        if self.refuse:
            raise RuntimeError(f"{REFUSE_KEY} is set")
        return {"counts": self.counts, "tuples": self.tuples}

    def restore_state(self, state):
        counts, tuples = state["counts"], state["tuples"]
        if not isinstance(counts, dict) or not isinstance(tuples, int):
            raise ValueError("a handed-over state is {'counts': {word: n}, 'tuples': n}")
        self.counts = {str(w): int(n) for w, n in counts.items()}
        self.tuples = tuples
        self.dirty = True
