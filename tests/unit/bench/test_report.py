"""The benchmark's JSON document and figures from synthetic segments."""

import json

from pycontrol.bench.migration import report
from pycontrol.bench.migration.measures import dense_seconds, segment_summary
from pycontrol.bench.migration.schemes import BASELINE, NONSTOP_PLUS, REBALANCE, make_options
from pycontrol.workloads.series import Second


def rows(acked):
    return dense_seconds([Second(ts=i, emitted=a, replayed=0, acked=a, failed=0, latency_n=a, latency_mean_ms=5.0,
                                 latency_p50_ms=5.0, latency_p99_ms=20.0, latency_max_ms=30.0, pending=0,
                                 behind_ms=0.0, bad_lines=0, target_rate=100.0, tasks=1)
                          for i, a in enumerate(acked) if a is not None], 0, len(acked))


def segment(scheme, m, acked, effects=None):
    r = rows(acked)
    return {"scheme": scheme, "m": m, "rows": r, "summary": segment_summary(r, 100.0), "moves": [],
            "restarted_workers": ["127.0.0.11:1"] if scheme == "rebalance" else [],
            "plan_to_effect": {"ms": effects, "missing": 0} if effects else None}


def test_document_has_a_row_per_segment_and_timelines_instead_of_rows(tmp_path):
    opts = make_options(True, "nonstop+,rebalance", None, 10, 5, None, 100, 1, None)
    segs = [segment("baseline", None, [100] * 10), segment("rebalance", None, [100] * 5 + [0] * 3 + [100, 100]),
            segment("nonstop+", 1, [100, 100, 100, 100, 100, 70, None, 100, 100, 100],
                    {"n": 2, "p50": 400.0, "p99": 900.0, "max": 900.0})]
    doc = report.document(opts, [BASELINE, REBALANCE, NONSTOP_PLUS], segs, {"throughput_mean": 100.0}, {"when": "x"})
    rows_ = {r["segment"]: r for r in doc["table"]}
    assert rows_["rebalance"]["degradation_s"]["100"] == 3 and rows_["rebalance"]["restarted_workers"] == 1
    assert rows_["nonstop+ M=1"]["degradation_s"] == {"20": 2, "40": 1, "60": 1, "80": 1, "100": 1}
    assert rows_["nonstop+ M=1"]["plan_to_effect_p50_ms"] == 400.0
    assert rows_["baseline"]["plan_to_effect_p50_ms"] is None
    assert doc["schemes"]["nonstop+"]["storm_yaml"] == {"nonstop.migration.lazy.kill.ms": 2000,
                                                          "nonstop.migration.push": True,
                                                          "nimbus.monitor.freq.secs": 1}
    seg = doc["segments"][2]
    assert "rows" not in seg and seg["timeline"]["acked"][6] == 0 and len(seg["timeline"]["t"]) == 10
    path = report.write_json(tmp_path, doc)
    assert json.loads(path.read_text())["options"]["move_offsets_s"] == [5]
    pngs = report.plots(tmp_path, segs, opts, 100.0)
    assert sorted(p.name for p in pngs) == ["degradation.png", "timeline-m1.png"]
    assert all(p.stat().st_size > 1000 for p in pngs)


def test_plan_to_effect_is_pooled_over_every_moved_executor_of_a_scheme():
    segs = [segment("nonstop+", 1, [100] * 4, {"n": 1, "p50": 400.0, "p99": 400.0, "max": 400.0}),
            segment("nonstop+", 4, [100] * 4, {"n": 4, "p50": 2000.0, "p99": 2600.0, "max": 2600.0}),
            segment("nonstop", 1, [100] * 4, {"n": 1, "p50": 900.0, "p99": 900.0, "max": 900.0}),
            segment("baseline", None, [100] * 4)]
    segs[0]["plan_to_effect"]["each_ms"] = [400.0]
    segs[1]["plan_to_effect"]["each_ms"] = [1500.0, 2000.0, 2100.0, 2600.0]
    pooled = report.pooled_plan_to_effect(segs)
    assert set(pooled) == {"nonstop+"}        # the nonstop segment predates per-move times: left out
    assert pooled["nonstop+"]["n"] == 5 and pooled["nonstop+"]["p50"] == 2000.0
    assert pooled["nonstop+"]["p99"] == 2600.0 and pooled["nonstop+"]["max"] == 2600.0
