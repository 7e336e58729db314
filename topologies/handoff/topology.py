"""Word count with two counting bolts side by side on the same words: `count` hands its state over in a live
move (HandoffCountBolt), `plaincount` (WordCountBolt) does not and moves as before; `refusecount` opts in but its snapshot fails, so
its move is refused with the reason."""

from streamparse import Grouping, Topology

from topologies.common.feed import feed_spout
from topologies.handoff.bolts import REFUSE_KEY, HandoffCountBolt
from topologies.wordcount.bolts import SplitSentenceBolt, WordCountBolt
from topologies.wordcount.topology import COUNT_CONFIG


class WordCountHandoff(Topology):
    """FeedSpout sentences -> split (1) -> count (2, hands over), plaincount (2, does not) and refusecount
    (1, its snapshot fails); 2 workers."""

    config = {"topology.workers": 2}
    sentences = feed_spout("lines", ["sentence"])
    split = SplitSentenceBolt.spec(inputs=[sentences], par=1)
    count = HandoffCountBolt.spec(inputs={split: Grouping.fields("word")}, par=2, config=COUNT_CONFIG)
    plaincount = WordCountBolt.spec(inputs={split: Grouping.fields("word")}, par=2, config=COUNT_CONFIG)
    refusecount = HandoffCountBolt.spec(inputs={split: Grouping.fields("word")}, par=1,
                                        config={**COUNT_CONFIG, REFUSE_KEY: True})
