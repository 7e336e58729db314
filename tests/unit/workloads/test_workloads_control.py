"""pycontrol.workloads: corpus preparation, spec export, series reading, the stability verdict."""

from __future__ import annotations

import json
import os
import sys

import pytest
from streamparse import Grouping, JavaSpout, Topology

from pycontrol.errors import UserError
from pycontrol.workloads import catalog, corpus, locate, series, stability
from pycontrol.workloads.spec import export_spec
from pycontrol.workloads.submit import implicit_settings
from topologies.wordcount.bolts import SplitSentenceBolt, WordCountBolt
from topologies.wordcount.topology import WordCount


def test_brown_lines_become_sentences_of_words():
    text = ("\n\n\tThe/at Fulton/np-tl County/nn-tl said/vbd ``/`` no/at evidence/nn ''/'' ./.\n\n"
            "\tAtlanta's/np$ over-all/jj 1913/cd ,/, 3/4/cd\n\n\t./. ;/.\n")
    assert corpus.sentences_from_tagged(text) == [
        "The Fulton County said no evidence", "Atlanta's over-all 1913 3/4"]


def test_every_python_topology_exports_a_spec_the_java_builder_understands():
    for name in catalog.python_topologies():
        spec = export_spec(catalog.topology_class(name), name)
        ids = [c["id"] for c in spec["spouts"] + spec["bolts"]]
        assert len(ids) == len(set(ids))
        assert all(isinstance(c["parallelism"], int) for c in spec["spouts"] + spec["bolts"]), name
        assert {s["from"] for s in spec["streams"]} <= set(ids) and {s["to"] for s in spec["streams"]} <= set(ids)
        assert spec["config"]["topology.workers"] >= 1


def test_wordcount_spec_has_the_papers_shape_and_java_parallelism():
    spec = export_spec(WordCount, "wc")
    par = {c["id"]: c["parallelism"] for c in spec["spouts"] + spec["bolts"]}
    assert par == {"sentences": 1, "split": 12, "count": 24}
    assert spec["config"] == {"topology.workers": 8}
    fields = [s["grouping"] for s in spec["streams"] if s["to"] == "count"]
    assert fields == [{"streamId": "default", "type": "FIELDS", "args": ["word"]}]
    assert spec["bolts"][0]["constructorArgs"][0] == ["streamparse_run", "topologies.wordcount.bolts.SplitSentenceBolt"]


def test_per_environment_parallelism_is_refused_with_the_component():
    class PerEnv(Topology):
        src = JavaSpout.spec(full_class_name="x.Spout", args_list=[], outputs=["sentence"], par={"prod": 2, "dev": 1})
        split = SplitSentenceBolt.spec(inputs=[src])
        count = WordCountBolt.spec(inputs={split: Grouping.fields("word")})

    with pytest.raises(UserError, match="component 'src'"):
        export_spec(PerEnv, "per-env")


def test_implicit_settings_give_python_its_interpreter_and_word_counts_their_input(monkeypatch, tmp_path):
    monkeypatch.setattr(corpus, "prepare", lambda force=False: tmp_path / "s.txt")
    assert implicit_settings("wordcount-py", []) == [f"workload.input={tmp_path / 's.txt'}",
                                                     f"nonstop.python={sys.executable}"]
    assert implicit_settings("wordcount-java", ["workload.trace=/t.gz"]) == []
    assert implicit_settings("linear-py", ["nonstop.python=/opt/py/bin/python"]) == []
    assert implicit_settings("relay", []) == []


def _line(ts, task=5, acked=10, n=10, mean=5.0, p99=9.0, failed=0, target=100.0):
    return {"ts": ts, "component": "src", "task": task, "emitted": acked, "replayed": 0, "acked": acked,
            "failed": failed, "lat_ms": {"n": n, "mean": mean, "p50": mean, "p95": p99, "p99": p99, "max": p99 + 1},
            "pending": 1, "behind_ms": 0.0, "bad_lines": 2, "target_rate": target}


def test_series_of_several_spout_tasks_merge_per_second(tmp_path):
    (tmp_path / "series-src-5.jsonl").write_text("\n".join(json.dumps(_line(t)) for t in (100, 101)) + "\n{\"ts\": 10")
    (tmp_path / "series-src-6.jsonl").write_text(json.dumps(_line(101, task=6, acked=30, n=30, mean=1.0, p99=20.0)))
    rows = series.read_series([tmp_path])
    assert [r.ts for r in rows] == [100, 101]
    r = rows[1]
    assert (r.acked, r.latency_n, r.tasks, r.target_rate, r.bad_lines) == (40, 40, 2, 200.0, 4)
    assert r.latency_mean_ms == pytest.approx((10 * 5.0 + 30 * 1.0) / 40)
    assert r.latency_p99_ms == 20.0
    _, bad = series.read_lines([tmp_path / "series-src-5.jsonl"])
    assert bad == 1  # the half-written last line


def _rows(latencies, acked=100, failed=0):
    return series.merge([_line(1000 + i, acked=acked, n=acked, mean=lat, failed=failed if i == 0 else 0)
                         for i, lat in enumerate(latencies)])


def test_stable_flat_latency_is_sustainable():
    v = stability.judge(_rows([5.0 + (i % 3) for i in range(40)]), target_rate=100)
    assert v.sustainable and v.reason == "stable" and v.acked_rate == 100


def test_growing_latency_is_not_sustainable():
    v = stability.judge(_rows([5.0 + 40 * i for i in range(40)]), target_rate=100)
    assert not v.sustainable and "latency grows" in v.reason and v.latency_slope_ms_per_s == pytest.approx(40)


def test_a_burst_of_slow_tuples_is_not_a_trend_but_a_growing_median_is():
    rows = _rows([5.0] * 40)
    burst = [r if i != 30 else series.Second(**{**r.to_dict(), "latency_mean_ms": 900.0, "latency_p99_ms": 2000.0})
             for i, r in enumerate(rows)]
    assert stability.judge(burst, target_rate=100).sustainable
    assert not stability.judge(_rows([5.0 + 3 * i for i in range(40)]), target_rate=100).sustainable


def test_falling_behind_the_target_or_failing_is_not_sustainable():
    assert "acked" in stability.judge(_rows([5.0] * 40, acked=80), target_rate=100).reason
    assert "failed" in stability.judge(_rows([5.0] * 40, failed=3), target_rate=100).reason
    assert not stability.judge(_rows([5.0] * 12), target_rate=100).sustainable  # too short after warm-up
    draining = stability.judge(_rows([6000.0 - 100 * i for i in range(40)]), target_rate=100)
    assert not draining.sustainable and "mean latency" in draining.reason


def test_locating_runs_of_a_topology_by_name(tmp_path):
    for node, topo, port in [("node1", "wc-1-100", 1), ("node2", "wc-1-100", 2), ("node1", "wc-3-200", 1),
                             ("node1", "wc-heavy-2-150", 1)]:
        (tmp_path / node / "workers-artifacts" / topo / str(port)).mkdir(parents=True)
    assert locate.topology_ids(tmp_path, "wc") == ["wc-1-100", "wc-3-200"]
    assert [p.parts[-4] for p in locate.artifact_dirs(tmp_path, "wc-1-100")] == ["node1", "node2"]
    assert os.path.basename(str(locate.artifact_dirs(tmp_path, "wc-heavy-2-150")[0].parent)) == "wc-heavy-2-150"


def test_a_stopped_feed_is_drained_once_its_emits_held_still_and_everything_is_acked():
    from pycontrol.bench.migration.measures import dense_seconds

    def rows(emitted, acked, pending):
        [r] = dense_seconds([], 0, 1)
        return [series.Second(**{**r.__dict__, "emitted": emitted, "acked": acked, "pending": pending})]
    d = series.Drain()
    assert d.check([]) is None
    assert d.check(rows(100, 90, 10)) is None and d.check(rows(100, 100, 0)) is None   # only two reads so far
    assert d.check(rows(100, 100, 0)).acked == 100
    late = series.Drain()
    for _ in range(3):
        got = late.check(rows(100, 100, 3))       # emits still, all acked, but the spout holds 3 pending
    assert got is None
