import json

from pycontrol.migration.events import events_file, first, read_events


def _write(path, events, partial=""):
    path.write_text("".join(json.dumps(e) + "\n" for e in events) + partial)


def test_the_rotated_generation_is_read_before_the_current_one_and_a_half_line_is_skipped(tmp_path):
    path = events_file(tmp_path, 6700)
    path.parent.mkdir(parents=True)
    assert read_events(path) == []
    _write(path.with_name(path.name + ".1"), [{"event": "attached", "t_ms": 1}, {"event": "switch", "t_ms": 2}])
    assert [e["event"] for e in read_events(path)] == ["attached", "switch"]   # just rotated: no current yet
    _write(path, [{"event": "stopped", "t_ms": 3}], partial='{"event": "sta')
    got = read_events(path)
    assert [e["t_ms"] for e in got] == [1, 2, 3]
    assert first(got, "switch")["t_ms"] == 2
