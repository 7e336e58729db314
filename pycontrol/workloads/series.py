"""Reading the per-second series the FeedSpout writes (series-<component>-<task>.jsonl).

Each line: {"ts": epoch s, "component", "task", "emitted", "replayed", "acked", "failed",
"lat_ms": {"n", "mean", "p50", "p95", "p99", "max"}, "pending", "behind_ms", "bad_lines",
"target_rate", "ack_gap_ms"}. ack_gap_ms (newer spouts; null before the first ack, absent in older
files) is the longest stretch in ms without an ack that ends in that second. Latency is measured at the spout, from each tuple's intended emit time to its ack
(the whole tuple tree done). Merging spout tasks: counts add up, the mean is weighted by acks,
percentiles, max and the ack gap take the worst task (an upper bound when there are several spout tasks).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterable

SERIES_GLOB = "series-*.jsonl"


@dataclass(frozen=True)
class Second:
    ts: int
    emitted: int
    replayed: int
    acked: int
    failed: int
    latency_n: int
    latency_mean_ms: float
    latency_p50_ms: float
    latency_p99_ms: float
    latency_max_ms: float
    pending: int
    behind_ms: float
    bad_lines: int
    target_rate: float | None
    tasks: int
    ack_gap_ms: float | None = None   # None: no ack yet, or a spout that does not write it

    def to_dict(self) -> dict:
        return asdict(self)


def read_lines(files: Iterable[Path]) -> tuple[list[dict], int]:
    """All records of the files, and how many lines were unreadable (e.g. a half-written last line)."""
    records, bad = [], 0
    for f in files:
        for line in Path(f).read_text(encoding="utf-8", errors="replace").splitlines():
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
                int(rec["ts"])
                records.append(rec)
            except (ValueError, KeyError, TypeError):
                bad += 1
    return records, bad


def merge(records: Iterable[dict]) -> list[Second]:
    by_ts: dict[int, list[dict]] = {}
    for r in records:
        by_ts.setdefault(int(r["ts"]), []).append(r)
    out = []
    for ts in sorted(by_ts):
        rs = by_ts[ts]
        lat = [r.get("lat_ms") or {} for r in rs]
        n = sum(int(x.get("n", 0)) for x in lat)
        mean = sum(float(x.get("mean", 0)) * int(x.get("n", 0)) for x in lat) / n if n else 0.0
        targets = [r.get("target_rate") for r in rs if r.get("target_rate") is not None]
        out.append(Second(
            ts=ts,
            emitted=sum(int(r.get("emitted", 0)) for r in rs),
            replayed=sum(int(r.get("replayed", 0)) for r in rs),
            acked=sum(int(r.get("acked", 0)) for r in rs),
            failed=sum(int(r.get("failed", 0)) for r in rs),
            latency_n=n,
            latency_mean_ms=round(mean, 3),
            latency_p50_ms=max((float(x.get("p50", 0)) for x in lat if x.get("n")), default=0.0),
            latency_p99_ms=max((float(x.get("p99", 0)) for x in lat if x.get("n")), default=0.0),
            latency_max_ms=max((float(x.get("max", 0)) for x in lat if x.get("n")), default=0.0),
            pending=sum(int(r.get("pending", 0)) for r in rs),
            behind_ms=max(float(r.get("behind_ms", 0)) for r in rs),
            bad_lines=sum(int(r.get("bad_lines", 0)) for r in rs),
            target_rate=sum(float(t) for t in targets) if targets else None,
            tasks=len(rs),
            ack_gap_ms=max((float(r["ack_gap_ms"]) for r in rs if r.get("ack_gap_ms") is not None), default=None),
        ))
    return out


def read_series(dirs: Iterable[Path]) -> list[Second]:
    files = [f for d in dirs for f in sorted(Path(d).glob(SERIES_GLOB))]
    records, _ = read_lines(files)
    return merge(records)


@dataclass(frozen=True)
class Totals:
    seconds: int
    emitted: int
    replayed: int
    acked: int
    failed: int
    bad_lines: int


def totals(rows: list[Second]) -> Totals:
    return Totals(seconds=len(rows), emitted=sum(r.emitted for r in rows), replayed=sum(r.replayed for r in rows),
                  acked=sum(r.acked for r in rows), failed=sum(r.failed for r in rows),
                  bad_lines=max((r.bad_lines for r in rows), default=0))


class Drain:
    """Successive reads of a stopped feed's series: drained once the emitted count held still over three
    reads, every emitted item is acked and the spout reports nothing pending."""

    def __init__(self) -> None:
        self.seen: list[int] = []

    def check(self, rows: list[Second]) -> Totals | None:
        """The totals once drained, else None."""
        if not rows:
            return None
        t = totals(rows)
        self.seen.append(t.emitted)
        still = len(self.seen) >= 3 and self.seen[-1] == self.seen[-3]
        return t if still and t.acked >= t.emitted and rows[-1].pending == 0 else None
