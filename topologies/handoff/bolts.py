"""A word count bolt that hands its counts over when one of its executors moves live."""

from __future__ import annotations

from topologies.common.handoff import StateHandoff
from topologies.wordcount.bolts import WordCountBolt


class HandoffCountBolt(StateHandoff, WordCountBolt):
    """WordCountBolt whose counts and tuple total move with its executor (snapshot taken between two tuples)."""

    def snapshot_state(self):
        return {"counts": self.counts, "tuples": self.tuples}

    def restore_state(self, state):
        counts, tuples = state["counts"], state["tuples"]
        if not isinstance(counts, dict) or not isinstance(tuples, int):
            raise ValueError("a handed-over state is {'counts': {word: n}, 'tuples': n}")
        self.counts = {str(w): int(n) for w, n in counts.items()}
        self.tuples = tuples
        self.dirty = True
