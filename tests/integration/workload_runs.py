"""Helpers for the workload integration tests: submit on the session cluster, wait for results."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from pycontrol.workloads import corpus, locate, outputs, series
from pycontrol.workloads.submit import submit_workload
from tests.conftest import wait_for
from topologies.common.words import split_words


def sentences_subset(tmp_dir: Path, n: int) -> Path:
    """The first n Brown sentences, as a workload.input file."""
    lines = corpus.prepare().read_text(encoding="ascii").splitlines()[:n]
    path = tmp_dir / f"brown-{n}.txt"
    path.write_text("\n".join(lines) + "\n", encoding="ascii")
    return path


def direct_count(path: Path) -> Counter:
    return Counter(w for line in path.read_text(encoding="ascii").splitlines() for w in split_words(line))


# On a machine shared with other test sessions workers and Python components can start slowly; with
# Storm's default 30 s a tuple sent before its consumer is up times out and is replayed, and an
# at-least-once word count then counts it twice. The tests assert nothing failed or was replayed.
PATIENT = ["topology.message.timeout.secs=300"]


class Run:
    """One submitted topology on the shared cluster."""

    def __init__(self, cluster, workload: str, name: str, settings: list[str]):
        self.cluster, self.name = cluster, name
        submit_workload(workload, name, [*PATIENT, *settings], cluster.conf_dir)
        self.topo_id = wait_for(f"{name} listed", lambda: cluster.rest.topology_id(name), 60)

    def dirs(self) -> list[Path]:
        return locate.artifact_dirs(self.cluster.layout.logs, self.topo_id)

    def series(self) -> list[series.Second]:
        return series.read_series(self.dirs())

    def wait_acked(self, total: int, timeout_s: float = 420) -> series.Totals:
        def done():
            t = series.totals(self.series())
            return t if t.acked >= total else None
        return wait_for(f"{self.name}: {total} tuples acked", done, timeout_s, poll_s=2)

    def wait_counts(self, words: int, timeout_s: float = 60) -> outputs.Counts:
        def done():
            c = outputs.read_counts(self.dirs(), "count")
            return c if c.tuples >= words else None
        return wait_for(f"{self.name}: {words} words counted", done, timeout_s, poll_s=1)

    def kill(self) -> None:
        rest = self.cluster.rest
        if rest.topology_id(self.name) is not None:
            rest.kill(self.topo_id, 0)
            wait_for(f"{self.name} gone", lambda: rest.topology_id(self.name) is None, 90)
