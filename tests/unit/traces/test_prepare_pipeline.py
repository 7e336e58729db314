"""`prepare_trace` behaviour beyond single formats: Zipf recovery end to end, sampling, the
bad-line limit, unreadable input, and the global row index used for text."""

from __future__ import annotations

import random

import pytest

from pycontrol.traces.errors import TraceError
from pycontrol.traces.formats import make_format, with_global_index
from pycontrol.traces.prepare import PrepareOptions, prepare_trace
from pycontrol.traces.replay import read_replay

from .conftest import DATA

pytestmark = pytest.mark.spark

ZIPF_S, ZIPF_KEYS, ZIPF_EVENTS, STEP_MS = 1.2, 300, 20_000, 7


@pytest.fixture(scope="module")
def zipf_csv(tmp_path_factory):
    """A generated Zipf key stream, one event every 7 ms; payload = event number (unique)."""
    rng = random.Random(2024)
    keys = rng.choices(range(1, ZIPF_KEYS + 1), weights=[r ** -ZIPF_S for r in range(1, ZIPF_KEYS + 1)],
                       k=ZIPF_EVENTS)
    path = tmp_path_factory.mktemp("zipf") / "zipf.csv"
    with path.open("w") as f:
        f.write("t_ms,key,n\n")
        for i, k in enumerate(keys):
            f.write(f"{1_700_000_000_000 + i * STEP_MS},key{k},{i}\n")
    return path


def prepare_zipf(spark, path, out, **options):
    fmt = make_format("csv", key=("key",), payload=("n",), time_cols=("t_ms",), time_format="epoch_ms")
    summary = prepare_trace(spark, [path], fmt, out, PrepareOptions(plots=False, **options))
    return summary, [(e.offset_ms, e.key, e.payload) for e in read_replay(out / "replay.ndjson.gz")]


@pytest.fixture(scope="module")
def full(spark, zipf_csv, tmp_path_factory):
    return prepare_zipf(spark, zipf_csv, tmp_path_factory.mktemp("full"))


def test_zipf_exponent_of_a_generated_stream_is_recovered(full):
    summary, replay = full
    zipf = summary["keys"]["zipf"]
    assert abs(zipf["exponent"] - ZIPF_S) <= 0.05, zipf
    assert len(replay) == ZIPF_EVENTS
    assert summary["rate"]["peak"] == 143 and summary["rate"]["seconds"] == 140  # 1000/7 per second


def test_replay_offsets_follow_the_input_times(full):
    _, replay = full
    assert [o for o, _, _ in replay] == [i * STEP_MS for i in range(ZIPF_EVENTS)]
    assert [p for _, _, p in replay] == [str(i) for i in range(ZIPF_EVENTS)]


def test_sample_is_seeded_and_stays_on_the_original_timeline(spark, zipf_csv, full, tmp_path):
    _, everything = full
    s1, a = prepare_zipf(spark, zipf_csv, tmp_path / "a", sample=0.25, seed=7)
    _, b = prepare_zipf(spark, zipf_csv, tmp_path / "b", sample=0.25, seed=7)
    _, c = prepare_zipf(spark, zipf_csv, tmp_path / "c", sample=0.25, seed=8)
    assert a == b and a != c
    # Bernoulli(0.25) of 20000: mean 5000, sd 61
    assert 4700 < len(a) < 5300
    assert set(a) <= set(everything)  # same offsets as unsampled: the timeline is not shifted
    assert a == sorted(a, key=lambda e: int(e[2]))
    assert s1["events"] == {"parsed": ZIPF_EVENTS, "replayed": len(a)}
    assert s1["rate"]["events"] == len(a)


def test_mostly_garbage_input_aborts_with_a_clear_error(spark, tmp_path):
    log = tmp_path / "mixed.log"
    good = '1.2.3.4 - - [01/May/1998:00:00:0{} +0000] "GET /a HTTP/1.0" 200 1\n'
    log.write_text("".join(good.format(i) for i in range(2)) + "garbage\n" * 8)
    with pytest.raises(TraceError, match=r"8 of 10 lines \(80%\) cannot be used as clf .*--max-bad-fraction 0.5.*"
                                         r"'garbage'"):
        prepare_trace(spark, [log], make_format("clf"), tmp_path / "out", PrepareOptions(plots=False))
    assert not (tmp_path / "out" / "replay.ndjson.gz").exists()


def test_the_bad_line_limit_is_a_setting(spark, tmp_path):
    # access.log has 3 bad lines of 10: fine under the default 0.5 (test_prepare_formats), not under 0.25
    with pytest.raises(TraceError, match=r"3 of 10 lines \(30%\).*--max-bad-fraction 0.25"):
        prepare_trace(spark, [DATA / "access.log"], make_format("clf"), tmp_path / "out",
                      PrepareOptions(plots=False, max_bad_fraction=0.25))


def test_input_of_the_wrong_format_names_the_problem(spark, tmp_path):
    (tmp_path / "t.txt").write_text("Hello world. Nothing like a log.\n")
    with pytest.raises(TraceError, match="Is --format pageviews right"):
        prepare_trace(spark, [tmp_path / "t.txt"], make_format("pageviews"), tmp_path / "o",
                      PrepareOptions(plots=False))


def test_missing_and_empty_input_are_trace_errors(spark, tmp_path):
    with pytest.raises(TraceError, match="cannot read"):
        prepare_trace(spark, [tmp_path / "nope.log"], make_format("clf"), tmp_path / "o")
    (tmp_path / "empty.log").write_text("\n\n")
    with pytest.raises(TraceError, match="no lines"):
        prepare_trace(spark, [tmp_path / "empty.log"], make_format("clf"), tmp_path / "o")


def test_unknown_csv_column_lists_the_real_ones(spark, tmp_path):
    (tmp_path / "c.csv").write_text("when,who\n2020-01-01,x\n")
    fmt = make_format("csv", key=("user",), time_cols=("when",))
    with pytest.raises(TraceError, match="unknown field.*user; available: when, who"):
        prepare_trace(spark, [tmp_path / "c.csv"], fmt, tmp_path / "o")


def test_sampling_that_keeps_nothing_says_so(spark, tmp_path):
    (tmp_path / "c.csv").write_text("t,k\n2020-01-01 00:00:00,a\n")
    fmt = make_format("csv", key=("k",), time_cols=("t",))
    with pytest.raises(TraceError, match="sampling kept none of the 1 events"):
        prepare_trace(spark, [tmp_path / "c.csv"], fmt, tmp_path / "o",
                      PrepareOptions(plots=False, sample=0.001, seed=1))


def test_global_index_is_consecutive_in_partition_order(spark):
    df = spark.range(0, 1000, numPartitions=5).where("id % 7 != 0")
    rows = with_global_index(df, "idx").collect()
    assert sorted((r["id"], r["idx"]) for r in rows) == list(
        zip([i for i in range(1000) if i % 7], range(1000)))
