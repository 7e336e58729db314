"""Word count with two counting bolts side by side on the same words: `count` hands its state over in a live
move (HandoffCountBolt), `plaincount` (WordCountBolt) does not and moves as before."""

from streamparse import Grouping, Topology

from topologies.common.feed import feed_spout
from topologies.handoff.bolts import HandoffCountBolt
from topologies.wordcount.bolts import SplitSentenceBolt, WordCountBolt
from topologies.wordcount.topology import COUNT_CONFIG


class WordCountHandoff(Topology):
    """FeedSpout sentences -> split (1) -> count (2, hands over) and plaincount (2, does not); 2 workers."""

    config = {"topology.workers": 2}
    sentences = feed_spout("lines", ["sentence"])
    split = SplitSentenceBolt.spec(inputs=[sentences], par=1)
    count = HandoffCountBolt.spec(inputs={split: Grouping.fields("word")}, par=2, config=COUNT_CONFIG)
    plaincount = WordCountBolt.spec(inputs={split: Grouping.fields("word")}, par=2, config=COUNT_CONFIG)
