"""`prepare_trace` on tiny committed fixtures, one per input format: exact line counts, bad-line
reasons, per-second rates, key tables and replay files (expected values worked out by hand from
the fixture files in data/)."""

from __future__ import annotations

import importlib.util

import pytest

from pycontrol.traces.formats import make_format
from pycontrol.traces.prepare import PrepareOptions, prepare_trace
from pycontrol.traces.replay import read_replay

from .conftest import DATA, csv_rows, replay_docs

pytestmark = pytest.mark.spark

NO_PLOTS = PrepareOptions(plots=False)
HAVE_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None


def run(spark, tmp_path_factory, inputs, fmt, options=NO_PLOTS):
    out = tmp_path_factory.mktemp(fmt.name)
    summary = prepare_trace(spark, [DATA / i for i in inputs], fmt, out, options)
    return summary, out


def replay_tuples(out):
    return [(e.offset_ms, e.key, e.payload) for e in read_replay(out / "replay.ndjson.gz")]


def series(out):
    rows = csv_rows(out / "rate_per_second.csv.gz")
    assert rows[0] == ["second", "events"]
    return [int(events) for _, events in rows[1:]]


# -- web access log (Common + Combined) -----------------------------------------------------------

@pytest.fixture(scope="module")
def clf(spark, tmp_path_factory):
    fmt = make_format("clf", payload=("status",))
    return run(spark, tmp_path_factory, ["access.log"], fmt, PrepareOptions(plots=HAVE_MATPLOTLIB, top_k=2))


def test_clf_bad_lines_are_counted_by_reason_and_skipped(clf):
    summary, _ = clf
    lines = summary["lines"]
    assert (lines["total"], lines["good"], lines["bad"]) == (10, 7, 3)  # the blank line is not a line
    assert lines["bad_by_reason"] == {
        "not a Common/Combined Log Format line": 1,
        "bad timestamp (want [dd/MMM/yyyy:HH:mm:ss Z])": 1,  # 31 April
        "missing key field (path)": 1,                         # request "-"
    }
    assert {e["line"] for e in lines["bad_examples"]} >= {"this line is not a log line"}


def test_clf_replay_is_sorted_keeps_input_order_on_ties_and_converts_time_zones(clf):
    _, out = clf
    assert replay_tuples(out) == [
        (0, "/english/index.html", "200"),
        (0, "/images/logo.gif", "200"),
        (0, "/images/logo.gif", "304"),
        (1000, "/english/index.html", "200"),
        (1000, "/images/logo.gif", "200"),   # 23:30:18 +0200 is 21:30:18 UTC
        (4000, "/english/teams.html", "200"),
        (4000, "/cgi-bin/vote", "500"),      # Combined format, escaped quotes in the agent
    ]


def test_clf_rates_include_empty_seconds(clf):
    summary, out = clf
    assert series(out) == [3, 2, 0, 0, 2]
    rate = summary["rate"]
    assert (rate["seconds"], rate["events"], rate["peak"], rate["empty_seconds"]) == (5, 7, 3, 2)
    assert rate["mean"] == pytest.approx(1.4)
    assert rate["peak_to_mean"] == pytest.approx(3 / 1.4)
    assert summary["trace"]["start_utc"] == "1998-04-30T21:30:17Z"
    assert summary["events"] == {"parsed": 7, "replayed": 7}


def test_clf_key_table_and_top_k(clf):
    summary, out = clf
    assert csv_rows(out / "keys.csv.gz")[1:] == [
        ["1", "/images/logo.gif", "3", str(3 / 7)],
        ["2", "/english/index.html", "2", str(2 / 7)],
        ["3", "/cgi-bin/vote", "1", str(1 / 7)],
        ["4", "/english/teams.html", "1", str(1 / 7)],
    ]
    keys = summary["keys"]
    assert [(k["key"], k["count"]) for k in keys["top"]] == [("/images/logo.gif", 3), ("/english/index.html", 2)]
    assert keys["distinct"] == 4 and keys["top_share"] == {"1": pytest.approx(3 / 7)}
    assert keys["zipf"] is None  # no key occurs 10 times


@pytest.mark.skipif(not HAVE_MATPLOTLIB, reason="matplotlib not installed")
def test_clf_outputs_and_plots_are_written(clf):
    summary, out = clf
    assert summary["files"]["rate_plot"] == "rate.png"
    for name in ("replay.ndjson.gz", "rate_per_second.csv.gz", "keys.csv.gz", "summary.json", "rate.png",
                 "rank_frequency.png"):
        assert (out / name).stat().st_size > 0, name
    assert (out / "rate.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not list(out.glob("*.tmp"))


# -- keyed event CSV ------------------------------------------------------------------------------

def test_csv_events_with_null_values_quoting_and_malformed_records(spark, tmp_path_factory):
    fmt = make_format("csv", key=("vehicle",), payload=("zone", "fare"), time_cols=("pickup_time",),
                      null_value="NA")
    summary, out = run(spark, tmp_path_factory, ["trips.csv"], fmt)
    assert summary["lines"]["bad_by_reason"] == {
        "wrong number of columns (want 4)": 2,
        "missing key field (vehicle)": 1,
        "bad time in pickup_time": 1,
    }
    assert (summary["lines"]["total"], summary["lines"]["good"]) == (8, 4)
    assert replay_tuples(out) == [
        (0, "V1", "north|10.5"),
        (250, "V2", "south|7.0"),
        (1000, "V1", "north, east|12.0"),
        (4500, "V1", "north|9.5"),
    ]
    assert series(out) == [2, 1, 0, 0, 1]


@pytest.mark.parametrize("time_cols, time_format, expected", [
    (("year", "month", "day", "hhmm"), "yyyy M d Hmm", [1357017300000, 1357084740000, None]),
    (("epoch",), "epoch", [1357017300000, 1357084740500, None]),
    (("epoch_ms",), "epoch_ms", [1357017300000, 1357084740500, None]),
    (("iso",), None, [1357017300000, 1357084740000, None]),
])
def test_csv_time_from_columns_patterns_and_epochs(spark, tmp_path, time_cols, time_format, expected):
    (tmp_path / "f.csv").write_text("year,month,day,hhmm,epoch,epoch_ms,iso,tail\n"
                                    "2013,1,1,515,1357017300,1357017300000,2013-01-01T05:15:00Z,N1\n"
                                    "2013,1,1,2359,1357084740.5,1357084740500,2013-01-01 23:59:00,N2\n"
                                    "2013,1,1,2400,x,,2013-01-01 24:00,N3\n")  # nycflights has 2400
    fmt = make_format("csv", key=("tail",), time_cols=time_cols, time_format=time_format)
    rows = fmt.lines(spark, [str(tmp_path / "f.csv")]).orderBy("_seq").collect()
    assert [r["_t_ms"] for r in rows] == expected
    assert [r["_bad"] is None for r in rows] == [True, True, False]
    assert rows[2]["_bad"].startswith(f"bad time in {' '.join(time_cols)}")


# -- Wikipedia page views -------------------------------------------------------------------------

def test_pageviews_spread_each_hours_views_evenly(spark, tmp_path_factory):
    summary, out = run(spark, tmp_path_factory, ["pageviews-20160101-010000", "pageviews-undated"],
                       make_format("pageviews"))
    assert summary["lines"]["bad_by_reason"] == {
        "count_views is not a whole number": 2,
        "no YYYYMMDD-HHMMSS hour in the file name": 1,
    }
    assert summary["lines"]["good"] == 4  # the zero-view line is good and has no events
    # n views at (i + 1/2)·3600 s/n after 01:00; the trace starts at the first: 01:07:30
    assert replay_tuples(out) == [
        (0, "en|Main_Page", None),
        (450_000, "de|Berlin", None),
        (900_000, "en|Main_Page", None),
        (1_350_000, "en.m|Main_Page", None),
        (1_800_000, "en|Main_Page", None),
        (2_250_000, "de|Berlin", None),
        (2_700_000, "en|Main_Page", None),
    ]
    assert replay_docs(out / "replay.ndjson.gz")[0] == {"offset_ms": 0, "key": "en|Main_Page"}  # no payload
    assert summary["trace"]["start_utc"] == "2016-01-01T01:07:30Z"
    assert summary["rate"]["seconds"] == 2701 and summary["rate"]["peak"] == 1


# -- plain text -----------------------------------------------------------------------------------

def test_text_sentences_arrive_at_a_fixed_rate_and_words_are_keys(spark, tmp_path_factory):
    fmt = make_format("text", payload=("sentence",), sentences_per_second=2)
    summary, out = run(spark, tmp_path_factory, ["sentences.txt"], fmt)
    s1, s2, s3, s4 = "The cat sat.", "The dog ran!", "A cat, a dog.", "the end"
    assert replay_tuples(out) == [
        (0, "the", s1), (0, "cat", s1), (0, "sat", s1),
        (500, "the", s2), (500, "dog", s2), (500, "ran", s2),
        (1000, "a", s3), (1000, "cat", s3), (1000, "a", s3), (1000, "dog", s3),
        (1500, "the", s4), (1500, "end", s4),
    ]
    assert replay_docs(out / "replay.ndjson.gz")[0] == {"offset_ms": 0, "key": "the", "payload": s1}
    assert series(out) == [6, 6]
    assert [(k["key"], k["count"]) for k in summary["keys"]["top"][:4]] == [
        ("the", 3), ("a", 2), ("cat", 2), ("dog", 2)]
    assert summary["trace"]["synthetic_time"] is True and summary["trace"]["start_utc"] is None


def test_clf_request_fields_and_combined_extras(spark, tmp_path):
    (tmp_path / "a.log").write_text(
        'h1 - - [01/May/1998:00:00:00 +0000] "GET /a b.html HTTP/1.1" 200 5\n'
        'h2 - - [01/May/1998:00:00:00 +0000] "GET /old" 200 5\n'
        'h3 id u [01/May/1998:00:00:00 +0000] "HEAD / HTTP/1.0" 304 - "http://r/" "UA \\"x\\" 1"\n'
        'h4 - - [01/May/1998:00:00:00 +0000] "GET /long HTTP/1.0" 200 5 "-" "' + "A" * 200_000 + '"\n')
    rows = make_format("clf").lines(spark, [str(tmp_path / "a.log")]).orderBy("_seq").collect()
    assert [(r["method"], r["path"], r["protocol"]) for r in rows] == [
        ("GET", "/a b.html", "HTTP/1.1"), ("GET", "/old", None), ("HEAD", "/", "HTTP/1.0"),
        ("GET", "/long", "HTTP/1.0")]
    assert (rows[2]["ident"], rows[2]["user"], rows[2]["size"], rows[2]["referer"]) == ("id", "u", "-", "http://r/")
    assert rows[2]["agent"] == 'UA \\"x\\" 1'  # kept as logged
    assert len(rows[3]["agent"]) == 200_000  # no regex stack overflow on huge fields
    assert [r["_bad"] for r in rows] == [None] * 4
