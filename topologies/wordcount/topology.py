"""Word count topologies (N-Storm paper): sentences -> split (12) -> count (24, fields word), 8 workers.

The sentence source is the Java FeedSpout (rate control and latency measurement need the JVM);
split and count are Python. Parallelism: --set workload.par.<component>=N.
"""

from streamparse import Grouping, Topology

from topologies.common.feed import feed_spout
from topologies.wordcount.bolts import HeavySplitSentenceBolt, SplitSentenceBolt, WordCountBolt
from topologies.wordcount.spout import SentenceSpout

# Count bolts write their snapshot on every tick (seconds).
COUNT_CONFIG = {"topology.tick.tuple.freq.secs": 1}


class WordCount(Topology):
    """N-Storm word count: FeedSpout sentences -> split (12) -> count (24, fields word), 8 workers."""

    config = {"topology.workers": 8}
    sentences = feed_spout("lines", ["sentence"])
    split = SplitSentenceBolt.spec(inputs=[sentences], par=12)
    count = WordCountBolt.spec(inputs={split: Grouping.fields("word")}, par=24, config=COUNT_CONFIG)


class WordCountHeavy(Topology):
    """Compute-heavy word count: split also computes H(n), n by word, drifting over time (KeyCost)."""

    config = {"topology.workers": 8}
    sentences = feed_spout("lines", ["sentence"])
    split = HeavySplitSentenceBolt.spec(inputs=[sentences], par=12)
    count = WordCountBolt.spec(inputs={split: Grouping.fields("word")}, par=24, config=COUNT_CONFIG)


class WordCountPythonSpout(Topology):
    """Word count with every component in Python, the spout included (no latency series)."""

    config = {"topology.workers": 8}
    sentences = SentenceSpout.spec(par=1)
    split = SplitSentenceBolt.spec(inputs=[sentences], par=12)
    count = WordCountBolt.spec(inputs={split: Grouping.fields("word")}, par=24, config=COUNT_CONFIG)
