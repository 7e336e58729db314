"""The state-size benchmark's nonstop way end to end on the session's cluster, shortened (n = 1, 1 KB of
ballast, two moves 10 s apart, 100 sentences/s): `statesize-java` on 4 workers, its spouts in one, each keep
task in one, and a spare that holds only an acker. The first keep executor moves to the spare and back while
the feed runs. The spare's acker sends only to the spouts' worker, so before the move the spare had no
connection to the workers of the other ackers, to which the keep task acks: the move must still lose no ack
(Storm's client drops what it is given before its connection is up), and the counts stay exact."""

from __future__ import annotations

import pytest

from pycontrol import zk
from pycontrol.bench.state_size import design, runner

pytestmark = pytest.mark.cluster


@pytest.mark.slow
def test_a_keep_task_moved_live_to_a_worker_that_held_only_an_acker_loses_no_ack_and_keeps_exact_counts(cluster, tmp_path):
    opts = design.make_options("1KB", "nonstop", 1, 100, 2, 10)
    lines: list[str] = []
    client = zk.connect(cluster.zk_hosts, auth=cluster.zk_auth)
    try:
        rec = runner.SizeRun(cluster.spec, client, opts, design.NONSTOP, 1024, tmp_path, lines.append).run()
    finally:
        client.stop()
        client.close()
    lay = rec["layout"]
    assert lay["spare"] not in (lay["spouts"], *lay["keeps"]), lay
    assert [(m["from"], m["to"]) for m in rec["moves"]] == [(lay["keeps"][0], lay["spare"]),
                                                             (lay["spare"], lay["keeps"][0])], rec["moves"]
    assert rec["emitted"] > 0 and rec["acked"] >= rec["emitted"], lines
    assert (rec["failed"], rec["replayed"], rec["warm_up_failed"]) == (0, 0, 0), lines
    assert rec["counts"]["exact"], rec["counts"]
    for m in rec["moves"]:
        assert m["handoff"]["installed"] and m["handoff"]["bytes"] > 0, m["handoff"]
    assert rec["summary"]["move_ms"]["n"] == 2 and rec["summary"]["after_max_latency_ms"]["n"] == 2
