"""`pycontrol bench otd`: joins the `bench` group of bench_cmd (listed before this module)."""

from __future__ import annotations

import time
from pathlib import Path

import click

from pycontrol.cli import bench_cmd
from pycontrol.paths import REPO_ROOT

DEFAULT_OUT = REPO_ROOT / "results" / "otd"
DEFAULT_HOME = REPO_ROOT / "build" / "bench" / "otd"


def register(main: click.Group) -> None:
    bench_cmd.add_subcommand(main, otd)
    bench_cmd.add_subcommand(main, otd_ab)


@click.command("otd")
@click.option("--quick", is_flag=True, help="Short check (~35 min): 60 s default + 480 s OTD per experiment (compute warms up 300 s first), "
                                            "small scaling sizes.")
@click.option("--parts", default="all", show_default=True, help="Comma-separated: compute, comm, scaling (or all).")
@click.option("--default-seconds", type=float, default=None, help="Seconds under Storm's default placement "
                                                                  "[default: 180; --quick: 60].")
@click.option("--otd-seconds", type=float, default=None, help="Seconds with OTD moving executors "
                                                              "[default: 720; --quick: 480].")
@click.option("--compute-rate", type=int, default=100_000, show_default=True,
              help="Sentences/s offered to the heavy word count (far above saturation: throughput is capacity).")
@click.option("--comm-rate", type=int, default=100_000, show_default=True,
              help="Sentences/s offered to the plain word count (far above saturation).")
@click.option("--link-bandwidth", default="2mbit", show_default=True,
              help="Shaped inter-node links of the communication experiment (tc on netns links).")
@click.option("--pin-nodes/--no-pin-nodes", default=True, show_default=True,
              help="Compute experiment: pin each node to its own CPU(s), so nodes have separate capacity.")
@click.option("--band", type=float, default=None,
              help="Compute experiment: set OTD's high/low CPU thresholds to the default phase's mean worker "
                   "share x (1 +- band) instead of the fixed 0.9 / 0.86 [default: fixed; with "
                   "--no-pin-nodes: 0.15].")
@click.option("--control", is_flag=True,
              help="Warm-up control: phase 2 only observes (no moves), so the change between the phases "
                   "that is not OTD's shows (default out: results/otd/control, --quick: quick-control).")
@click.option("--sizes", default=None, help="Scaling: NODESxEXECUTORS,... (workers = 2 x nodes).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output directory [default: results/otd, --quick: results/otd/quick].")
@click.option("--home", type=click.Path(file_okay=False, path_type=Path), default=DEFAULT_HOME, show_default=True,
              help="Directory for the clusters (one subdirectory per experiment; logs are kept).")
@click.option("--port-base", type=int, default=19500, show_default=True, help="Port base of the clusters.")
def otd(quick, parts, default_seconds, otd_seconds, compute_rate, comm_rate, link_bandwidth, pin_nodes, band,
        control, sizes, out, home, port_base) -> None:
    """The paper's OTD experiment side by side with Storm's default placement: the computation-intensive
    heavy word count (worker CPU, throughput), the communication-intensive word count on shaped links
    (inter-node share, throughput, latency), and one OTD round's time as executors x workers grow."""
    from pycontrol.bench.otd.runner import make_options, run_benchmark

    opts = make_options(quick, parts, default_seconds, otd_seconds, compute_rate, comm_rate, link_bandwidth, band,
                        sizes, control, pin_nodes)
    default_out = DEFAULT_OUT / ("quick" if quick else "") if not control else (
        DEFAULT_OUT / ("quick-control" if quick else "control"))
    out = (out or default_out).resolve()

    def echo(msg: str) -> None:
        click.echo(f"{time.strftime('%H:%M:%S')} {msg}")

    report, written = run_benchmark(opts, home.resolve(), port_base, out, echo)
    for part, doc in report["parts"].items():
        if "error" in doc:
            click.echo(f"{part}: failed: {doc['error']}")
            continue
        if part == "scaling":
            for r in doc["rows"]:
                click.echo(f"scaling: {r['executors']:>6} executors x {r['workers']:>4} workers: "
                           f"{r['median_ms']:.2f} ms wall, {r['median_thread_cpu_ms']:.2f} ms CPU "
                           f"({r['thread_cpu_us_per_pair']:.3f} us per pair)")
            continue
        click.echo(f"{part}: {doc['moves_made']} move(s)")
        for metric, v in doc["targets"].items():
            d, o = doc["default"][metric], doc["otd"][metric]
            verdict = "n/a" if v["met"] is None else "met" if v["met"] else "missed"
            click.echo(f"  {metric:<18} default {_n(d):>9}  OTD {_n(o):>9}  change {_n(v['change_pct']):>7} %  "
                       f"(target {v['target_pct']:+g} %: {verdict})")
    for p in written:
        click.echo(f"wrote {p}")


def _n(v) -> str:
    return "-" if v is None else f"{v:.3g}" if abs(v) < 100 else f"{v:.0f}"


@click.command("otd-ab")
@click.option("--repeat", type=int, default=3, show_default=True, help="Repetitions of (OTD, control, ceiling).")
@click.option("--warmup", "warmup_s", type=float, default=30, show_default=True,
              help="Seconds of warm-up in every run (controller observing), left out.")
@click.option("--duration", "phase_s", type=float, default=120, show_default=True, help="Measured seconds per run.")
@bench_cmd.result_options("results/otd/ab-<date-time>.json", DEFAULT_HOME / "ab", 19500)
@click.option("--part", type=click.Choice(["compute", "comm"]), default="compute", show_default=True,
              help="compute: the demo's heavy word count on pinned nodes, against a control and a balanced "
                   "ceiling; comm: the word count on netns nodes with shaped links, against a control, "
                   "measured over the second half of each run.")
def otd_ab(repeat, warmup_s, phase_s, out, home, port_base, part) -> None:
    """OTD against a no-move control and a balanced ceiling on the demo's pinned cluster, repeated (order
    rotated): OTD's throughput gain and the share of the achievable gain it realised, with n and spread.
    Run it alone on the machine: about 3 runs x (warm-up + duration + ~40 s) per repetition."""
    from pycontrol.bench.otd.ab import run_ab

    out = (out or DEFAULT_OUT / f"ab-{time.strftime('%Y%m%d-%H%M%S')}.json").resolve()

    def echo(msg: str) -> None:
        click.echo(f"{time.strftime('%H:%M:%S')} {msg}")

    doc = run_ab(home.resolve(), out, echo, port_base=port_base, warmup_s=warmup_s, phase_s=phase_s, repeat=repeat,
                 part=part)
    for line in doc["summary_lines"]:
        click.echo(line)
    click.echo(f"wrote {out}")
