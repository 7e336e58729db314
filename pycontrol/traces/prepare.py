"""`trace prepare` as a Spark job: parsed events -> replay file, rate series, key table, summary.

Statistics describe the *replay* (after sampling and time scaling): that is the stream the spout
will send and whose rate a topology must be sized for. The rate series spans the whole trace,
from its first to its last parsed event (a sample thins it, never shortens it). The summary also
keeps the input's line and event counts and the original trace span.

Outputs in the out dir (each written to a .tmp file and renamed, the summary last):
    replay.ndjson.gz        the replay file (format: `pycontrol.traces.replay`)
    rate_per_second.csv.gz  second,events for every second of the replay, empty ones included
    keys.csv.gz             rank,key,count,share, most frequent first
    summary.json            counts, rate stats, key stats, Zipf fit, bad-line report, settings
    rate.png, rank_frequency.png   unless plots are off
"""

from __future__ import annotations

import importlib.util
import math
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterable

from pyspark import StorageLevel
from pyspark.errors import AnalysisException
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from pycontrol.traces import files, stats
from pycontrol.traces.errors import TraceError
from pycontrol.traces.formats import BAD, RAW, TraceFormat
from pycontrol.traces.replay import REPLAY_FILE

RATE_FILE = "rate_per_second.csv.gz"
KEYS_FILE = "keys.csv.gz"
SUMMARY_FILE = "summary.json"
RATE_PLOT = "rate.png"
RANK_PLOT = "rank_frequency.png"
PLOT_BUCKETS = 2000       # at most this many points on the rate plot; wider buckets beyond that
RAW_EXAMPLE_CHARS = 200


@dataclass(frozen=True)
class PrepareOptions:
    speedup: float = 1.0          # replay time = trace time / speedup
    sample: float = 1.0           # fraction of events kept (Bernoulli, seeded)
    seed: int = 0
    top_k: int = 10
    max_bad_fraction: float = 0.5  # abort when more lines than this are bad
    zipf_min_count: int = 10
    bad_examples: int = 5
    plots: bool = True

    def __post_init__(self):
        if not (math.isfinite(self.speedup) and self.speedup > 0):
            raise TraceError(f"--speedup must be a number > 0, got {self.speedup:g}")
        if not (0 < self.sample <= 1):
            raise TraceError(f"--sample must be a fraction in (0, 1], got {self.sample:g}")
        if not (0 <= self.max_bad_fraction <= 1):
            raise TraceError(f"--max-bad-fraction must be in [0, 1], got {self.max_bad_fraction:g}")
        if self.top_k < 0 or self.zipf_min_count < 1:
            raise TraceError("--top-k must be >= 0 and the Zipf minimum count >= 1")


Log = Callable[[str], None]


def prepare_trace(spark: SparkSession, inputs: Iterable[str | Path], fmt: TraceFormat, out_dir: Path,
                  options: PrepareOptions = PrepareOptions(), log: Log = lambda msg: None) -> dict:
    """Run the whole preparation; returns the summary (also written to out_dir/summary.json)."""
    paths = [str(p) for p in inputs]
    if not paths:
        raise TraceError("no input given")
    if options.plots and importlib.util.find_spec("matplotlib") is None:
        raise TraceError("plots need matplotlib (pip install matplotlib==3.11.2); or use --no-plots")
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    cached: list[DataFrame] = []

    def persist(df: DataFrame) -> DataFrame:
        df = df.persist(StorageLevel.MEMORY_AND_DISK)
        cached.append(df)
        return df

    try:
        log(f"reading {', '.join(paths)} as {fmt.name}")
        lines = persist(_read_lines(spark, fmt, paths))
        line_report = _check_lines(lines, fmt, paths, options)

        log("parsing events")
        events = fmt.events(lines.where(F.col(BAD).isNull()))
        first = events.agg(F.count(F.lit(1)).alias("n"), F.min("t_ms").alias("t0"),
                           F.max("t_ms").alias("t1")).first()
        if not first["n"]:
            raise TraceError(f"no events in {', '.join(paths)}: every usable line was empty "
                             f"(zero views / no words)")
        t0, t1 = first["t0"], first["t1"]
        _clear_outputs(out_dir)  # from here on, files appear; the summary (written last) marks success

        kept = events.sample(False, options.sample, options.seed) if options.sample < 1 else events
        delta = F.col("t_ms") - F.lit(t0)
        offset = delta if options.speedup == 1 else F.floor(delta / F.lit(float(options.speedup)))
        replay = persist(kept.select(offset.cast("long").alias("offset_ms"), "key", "payload", "seq", "pos"))

        log("computing the per-second rate series")
        # The series spans the whole trace (a sample does not shorten it): last second = the
        # last unsampled event's offset, computed as Spark computes offsets.
        span = (t1 - t0) if options.speedup == 1 else math.floor((t1 - t0) / float(options.speedup))
        per_second = (replay.groupBy((F.col("offset_ms") / 1000).cast("long").alias("sec"))
                      .agg(F.count(F.lit(1)).alias("n")))
        series = stats.RateSeriesBuilder(span // 1000 + 1, PLOT_BUCKETS)
        files.write_text(out_dir / RATE_FILE, _series_csv(per_second, series))
        if series.events == 0:
            (out_dir / RATE_FILE).unlink(missing_ok=True)
            raise TraceError(f"sampling kept none of the {first['n']} events; raise --sample "
                             f"(now {options.sample:g})")
        rate = series.stats()

        log("computing key statistics")
        keys = _keys(replay, rate.events, out_dir, options)

        log(f"writing the replay file ({rate.events} events)")
        replay_lines = (replay.orderBy("offset_ms", "seq", "pos")
                        .select(F.to_json(F.struct("offset_ms", "key", "payload")).alias("j")))
        files.write_lines(out_dir / REPLAY_FILE, (r[0] for r in replay_lines.toLocalIterator(True)))

        outputs = {"replay": REPLAY_FILE, "rate_series": RATE_FILE, "keys": KEYS_FILE}
        if options.plots:
            log("plotting")
            from pycontrol.traces import plots  # matplotlib only when plotting

            plots.plot_rate(out_dir / RATE_PLOT, series.buckets(), rate, title=f"{fmt.name}: {_names(paths)}")
            plots.plot_rank_frequency(out_dir / RANK_PLOT, keys, title=f"{fmt.name}: {_names(paths)}")
            outputs.update(rate_plot=RATE_PLOT, rank_plot=RANK_PLOT)

        summary = {
            "input": paths,
            "parser": fmt.describe(),
            "settings": {"speedup": options.speedup, "sample": options.sample, "seed": options.seed,
                         "max_bad_fraction": options.max_bad_fraction, "top_k": options.top_k},
            "lines": line_report,
            "events": {"parsed": first["n"], "replayed": rate.events},
            "trace": {
                "synthetic_time": fmt.synthetic_time,
                "start_ms": t0,
                "start_utc": None if fmt.synthetic_time else _utc(t0),
                "duration_s": (t1 - t0) / 1000,
            },
            "rate": {"bin_s": 1, **rate.to_json()},
            "keys": keys.to_json(),
            "files": outputs,
        }
        files.write_json(out_dir / SUMMARY_FILE, summary)
        return summary
    finally:
        for df in cached:
            df.unpersist()


def _clear_outputs(out_dir: Path) -> None:
    for name in (SUMMARY_FILE, REPLAY_FILE, RATE_FILE, KEYS_FILE, RATE_PLOT, RANK_PLOT):
        (out_dir / name).unlink(missing_ok=True)


def _read_lines(spark: SparkSession, fmt: TraceFormat, paths: list[str]) -> DataFrame:
    try:
        return fmt.lines(spark, paths)
    except AnalysisException as e:
        first_line = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise TraceError(f"cannot read {', '.join(paths)}: {first_line}") from None


def _check_lines(lines: DataFrame, fmt: TraceFormat, paths: list[str], options: PrepareOptions) -> dict:
    """Count good and bad lines; abort when the bad ones pass the limit (wrong format or garbage)."""
    by_reason = {r[BAD]: r["n"] for r in lines.groupBy(BAD).agg(F.count(F.lit(1)).alias("n")).collect()}
    total = sum(by_reason.values())
    good = by_reason.pop(None, 0)
    bad = total - good
    if total == 0:
        raise TraceError(f"{', '.join(paths)}: no lines to read (empty input?)")
    examples = []
    if bad:
        rows = lines.where(F.col(BAD).isNotNull()).select(BAD, RAW).limit(options.bad_examples).collect()
        examples = [{"reason": r[BAD], "line": _clip(r[RAW])} for r in rows]
    report = {"total": total, "good": good, "bad": bad, "bad_fraction": bad / total,
              "bad_by_reason": dict(sorted(by_reason.items(), key=lambda kv: -kv[1])),
              "bad_examples": examples}
    if bad / total > options.max_bad_fraction or good == 0:
        reasons = "; ".join(f"{n} {reason}" for reason, n in report["bad_by_reason"].items())
        first = f" First: {examples[0]['line']!r} ({examples[0]['reason']})." if examples else ""
        raise TraceError(
            f"{bad} of {total} lines ({100 * bad / total:.0f}%) cannot be used as {fmt.name} "
            f"(limit --max-bad-fraction {options.max_bad_fraction:g}): {reasons}.{first} "
            f"Is --format {fmt.name} right for {_names(paths)}?")
    return report


def _series_csv(per_second: DataFrame, series: stats.RateSeriesBuilder, chunk: int = 65536):
    """`second,events` lines for every second of the series, empty ones as 0, feeding `series`
    on the way. Runs of empty seconds are formatted in bulk: a slow trace replayed at real time
    is mostly empty seconds."""
    yield "second,events\n"
    expected = 0
    for sec, n in per_second.orderBy("sec").toLocalIterator(True):
        yield from _zeros(expected, sec, chunk)
        series.add(sec, n)
        yield f"{sec},{n}\n"
        expected = sec + 1
    yield from _zeros(expected, series.seconds, chunk)


def _zeros(start: int, stop: int, chunk: int):
    for a in range(start, stop, chunk):
        yield "".join(f"{s},0\n" for s in range(a, min(stop, a + chunk)))


def _keys(replay: DataFrame, events: int, out_dir: Path, options: PrepareOptions) -> stats.KeyStats:
    """Key frequency table (written in full) and its statistics, in one pass over the sorted counts."""
    counts = (replay.groupBy("key").agg(F.count(F.lit(1)).alias("n"))
              .orderBy(F.desc("n"), F.asc("key")))
    builder = stats.KeyStatsBuilder(options.top_k, options.zipf_min_count)

    def rows():
        for rank, r in enumerate(counts.toLocalIterator(True), 1):
            builder.add(r["key"], r["n"])
            yield rank, r["key"], r["n"], r["n"] / events

    files.write_csv(out_dir / KEYS_FILE, ("rank", "key", "count", "share"), rows())
    return builder.result()


def _utc(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).isoformat().replace("+00:00", "Z")


def _clip(line: str | None) -> str:
    line = line or ""
    return line if len(line) <= RAW_EXAMPLE_CHARS else line[:RAW_EXAMPLE_CHARS] + "…"


def _names(paths: list[str]) -> str:
    names = [Path(p).name or p for p in paths]
    return ", ".join(names[:3]) + (f" (+{len(names) - 3})" if len(names) > 3 else "")

