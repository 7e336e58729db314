"""The replay file reader: what the spout may rely on, and the errors for what it may not."""

from __future__ import annotations

import gzip

import pytest

from pycontrol.traces.errors import TraceError
from pycontrol.traces.replay import ReplayEvent, parse_line, read_replay


def write(path, *lines: str):
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write("".join(line + "\n" for line in lines))
    return path


def test_round_trip_with_and_without_payload(tmp_path):
    events = [ReplayEvent(0, "a"), ReplayEvent(0, "b", "x|1"), ReplayEvent(1500, "ü", "")]
    path = write(tmp_path / "r.ndjson.gz", *(e.to_line() for e in events))
    assert list(read_replay(path)) == events
    assert '"payload"' not in events[0].to_line()


@pytest.mark.parametrize("line, message", [
    ('{"offset_ms": -1, "key": "a"}', "offset_ms must be an integer"),
    ('{"offset_ms": 1.5, "key": "a"}', "offset_ms must be an integer"),
    ('{"offset_ms": true, "key": "a"}', "offset_ms must be an integer"),
    ('{"offset_ms": 1, "key": 7}', "key must be a string"),
    ('{"offset_ms": 1, "key": "a", "payload": 3}', "payload must be a string"),
    ('{"offset_ms": 1, "key": "a", "ts": 3}', "unknown field"),
    ('[1, "a"]', "expected a JSON object"),
    ('{"offset_ms": 1,', "not JSON"),
])
def test_malformed_lines_are_named(line, message):
    with pytest.raises(TraceError, match=message):
        parse_line(line, "f:3")


def test_out_of_order_offsets_are_an_error_with_the_line_number(tmp_path):
    path = write(tmp_path / "r.ndjson.gz", '{"offset_ms":5,"key":"a"}', '{"offset_ms":4,"key":"b"}')
    with pytest.raises(TraceError, match=r":2: offset_ms 4 is before the previous line's 5"):
        list(read_replay(path))


def test_a_file_that_is_not_gzip_is_a_clear_error(tmp_path):
    path = tmp_path / "r.ndjson.gz"
    path.write_text('{"offset_ms":0,"key":"a"}\n')
    with pytest.raises(TraceError, match="cannot read replay file"):
        list(read_replay(path))
