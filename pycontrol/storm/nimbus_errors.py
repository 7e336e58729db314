"""What a Nimbus refusal means when Storm's Thrift layer hides it. Nimbus answers an exception it did not
declare (its "not a leader" check included) with "Internal error processing <call>" and nothing else;
the reason is only in Nimbus's log."""

from __future__ import annotations

HIDDEN = "Internal error processing"
HINT = ("; Nimbus's log (nimbus.log under the cluster's logs) has the reason. A Nimbus that is not the "
        "leader refuses uploads this way, e.g. for a while after a ZooKeeper outage: "
        "`pycontrol cluster status` shows whether one leads")


def explain(line: str) -> str:
    """The line with a pointer to the reason when Thrift hid it; otherwise the line unchanged."""
    return line + HINT if HIDDEN in line and HINT not in line else line
