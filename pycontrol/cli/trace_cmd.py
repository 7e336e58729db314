"""`pycontrol trace prepare`: a raw trace -> replay file, rate series, key statistics, plots.

Spark is imported inside the command only, so `pycontrol --help` and the other commands start
without a JVM.
"""

from __future__ import annotations

import glob
import json
import os
import time
from pathlib import Path

import click

from pycontrol.errors import UserError

FORMATS = ("clf", "csv", "pageviews", "text")  # = pycontrol.traces.formats.FORMATS, kept Spark-free here


def register(main: click.Group) -> None:
    main.add_command(trace)


@click.group("trace")
def trace() -> None:
    """Prepare real traces for replay (PySpark)."""


@trace.command("prepare")
@click.argument("inputs", nargs=-1, required=True, metavar="INPUT...")
@click.option("--format", "fmt", type=click.Choice(FORMATS), required=True,
              help="clf: Common/Combined web log; csv: keyed events with a header; "
                   "pageviews: Wikipedia hourly dumps; text: plain text for word count.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Directory for the replay file, series, tables, summary and plots.")
@click.option("--master", default="local[*]", show_default=True, help="Spark master URL.")
@click.option("--speedup", type=float, default=1.0, show_default=True,
              help="Replay time = trace time / SPEEDUP (2 = twice as fast).")
@click.option("--sample", type=float, default=1.0, show_default=True,
              help="Keep this fraction of events: a seeded Bernoulli sample, the same for the same "
                   "input, seed and Spark partitioning.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of --sample.")
@click.option("--key-col", "key_cols", multiple=True,
              help="Field(s) forming the key, joined with '|' (csv: column names; clf: host, path, "
                   "status, ... default path; pageviews: project, title, default both; text: word).")
@click.option("--payload-col", "payload_cols", multiple=True,
              help="Field(s) forming the optional payload, joined with '|'.")
@click.option("--time-col", "time_cols", multiple=True,
              help="csv: time column(s); several are joined with spaces before parsing.")
@click.option("--time-format", default=None,
              help="csv: Spark datetime pattern (e.g. 'yyyy M d Hmm'), or epoch / epoch_ms; "
                   "default: ISO-like timestamps.")
@click.option("--delimiter", default=",", show_default=True, help="csv: field separator.")
@click.option("--null-value", default=None, help="csv: the string that means 'missing' (e.g. NA).")
@click.option("--sentences-per-second", type=float, default=100.0, show_default=True,
              help="text: arrival rate of sentences (text has no times of its own).")
@click.option("--max-bad-fraction", type=float, default=0.5, show_default=True,
              help="Abort when more than this fraction of lines cannot be parsed.")
@click.option("--top-k", type=int, default=10, show_default=True, help="Most frequent keys to report.")
@click.option("--zipf-min-count", type=int, default=10, show_default=True,
              help="Fit the Zipf exponent over ranks whose key occurs at least this often.")
@click.option("--plots/--no-plots", default=True, show_default=True, help="Draw rate and rank/frequency PNGs.")
@click.option("--conf", "confs", multiple=True, metavar="KEY=VALUE",
              help="Extra Spark setting, e.g. spark.driver.memory=4g (repeatable).")
@click.option("--progress/--no-progress", default=True, show_default=True,
              help="Spark's console progress bar on long stages.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def prepare_cmd(inputs, fmt, out_dir, master, speedup, sample, seed, key_cols, payload_cols, time_cols,
                time_format, delimiter, null_value, sentences_per_second, max_bad_fraction, top_k, zipf_min_count,
                plots, confs, progress, as_json) -> None:
    """Turn raw trace INPUT(s) (files, directories, globs or Hadoop URIs) into a replay file
    for the rate-controlled spout plus rate and key statistics."""
    for path in inputs:
        _check_local_input(path)
    conf = dict(_parse_conf(c) for c in confs)

    from pycontrol.traces.formats import make_format  # Spark from here on
    from pycontrol.traces.prepare import PrepareOptions, prepare_trace
    from pycontrol.traces.session import trace_session

    options = PrepareOptions(speedup=speedup, sample=sample, seed=seed, top_k=top_k,
                             max_bad_fraction=max_bad_fraction, zipf_min_count=zipf_min_count, plots=plots)
    parser = make_format(fmt, key=key_cols, payload=payload_cols, time_cols=time_cols,
                         time_format=time_format, delimiter=delimiter, null_value=null_value,
                         sentences_per_second=sentences_per_second)
    started = time.monotonic()

    def log(msg: str) -> None:
        click.echo(f"trace [{time.monotonic() - started:5.1f} s] {msg}", err=True)

    with trace_session(master, progress=progress, conf=conf) as spark:
        summary = prepare_trace(spark, inputs, parser, out_dir, options, log=log)
    click.echo(json.dumps(summary, indent=2, ensure_ascii=False) if as_json else render(summary, out_dir))


def render(s: dict, out_dir: Path) -> str:
    """A few lines a person reads after the run."""
    lines, rate, keys = s["lines"], s["rate"], s["keys"]
    out = [f"lines: {lines['total']} read, {lines['bad']} bad ({100 * lines['bad_fraction']:.1f}%) skipped"]
    for reason, n in lines["bad_by_reason"].items():
        out.append(f"  {n} × {reason}")
    out.append(f"events: {s['events']['parsed']} parsed, {s['events']['replayed']} in the replay "
               f"(speedup {s['settings']['speedup']:g}, sample {s['settings']['sample']:g})")
    out.append(f"rate over {rate['seconds']} s: mean {rate['mean']:.2f}/s, peak {rate['peak']}/s "
               f"(peak/mean {rate['peak_to_mean']:.2f}), CV {rate['cv']:.2f}, p95 {rate['p95']}/s")
    top = ", ".join(f"{k['key']} {100 * k['share']:.1f}%" for k in keys["top"][:3])
    out.append(f"keys: {keys['distinct']} distinct; top: {top}")
    zipf = keys["zipf"]
    out.append("Zipf exponent: " + (f"{zipf['exponent']:.3f} (R² {zipf['r2']:.3f}, ranks 1..{zipf['max_rank']})"
                                    if zipf else "not fitted (too few keys with enough events)"))
    out.append(f"written to {out_dir}: " + ", ".join(s["files"].values()) + ", summary.json")
    return "\n".join(out)


def _check_local_input(path: str) -> None:
    """A plain local path that does not exist is a typo: say so before starting Spark."""
    if "://" in path or glob.has_magic(path):
        return
    if not os.path.exists(path):
        raise UserError(f"input {path} does not exist")


def _parse_conf(item: str) -> tuple[str, str]:
    key, sep, value = item.partition("=")
    if not sep or not key.strip():
        raise UserError(f"--conf wants KEY=VALUE, got {item!r}")
    return key.strip(), value.strip()
