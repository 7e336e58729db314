"""The Java spout every Python topology is fed and measured by (see FeedSpout's javadoc)."""

from __future__ import annotations

from streamparse import JavaSpout

FEED_SPOUT = "io.nonstopstorm.workloads.feed.FeedSpout"


def feed_spout(kind: str, fields: list[str], par: int = 1):
    """A JavaSpout spec for FeedSpout(kind, "f1,f2"): kind is lines, generated or trace."""
    return JavaSpout.spec(full_class_name=FEED_SPOUT, args_list=[kind, ",".join(fields)],
                          outputs=list(fields), par=par)
