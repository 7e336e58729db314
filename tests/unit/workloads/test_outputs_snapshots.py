"""Counts snapshots per task instance: a moved task has one file per worker it ran in."""

from __future__ import annotations

from collections import Counter

from pycontrol.workloads.outputs import read_counts, read_snapshots
from topologies.common.snapshot import write_counts


def test_every_instance_of_a_task_is_listed_with_what_it_counted(tmp_path):
    old, new = tmp_path / "worker-a", tmp_path / "worker-b"
    old.mkdir(), new.mkdir()
    write_counts(old, "count", 3, {"x": 4, "y": 1}, 5)
    write_counts(old, "split", 7, {"z": 1}, 1)
    write_counts(new, "count", 3, {"x": 2}, 2)
    (new / "counts-count-9.json").write_text('{"component": "count"}')   # no task: skipped

    snaps = sorted(read_snapshots([old, new], "count"), key=lambda s: s.path.parent.name)
    assert [(s.path.parent.name, s.task, s.tuples, s.words) for s in snaps] == [
        ("worker-a", 3, 5, Counter({"x": 4, "y": 1})), ("worker-b", 3, 2, Counter({"x": 2}))]
    assert {s.component for s in read_snapshots([old, new])} == {"count", "split"}


def test_the_newest_instance_of_a_task_is_its_result(tmp_path):
    old, new = tmp_path / "a", tmp_path / "b"
    old.mkdir(), new.mkdir()
    write_counts(old, "count", 3, {"x": 4}, 4)
    later = write_counts(new, "count", 3, {"x": 2}, 2)
    snap = read_snapshots([new])[0]
    later.write_text(later.read_text().replace(f'"written_ms": {snap.written_ms}', f'"written_ms": {snap.written_ms + 5}'))
    c = read_counts([old, new], "count")
    assert (dict(c.words), c.tuples, c.tasks) == ({"x": 2}, 2, 1)
