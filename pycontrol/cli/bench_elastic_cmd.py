"""`pycontrol bench elastic`: joins the `bench` group of bench_cmd (listed before this module)."""

from __future__ import annotations

import time

import click

from pycontrol.cli import bench_cmd
from pycontrol.errors import UserError
from pycontrol.paths import REPO_ROOT

DEFAULT_OUT = REPO_ROOT / "results" / "elastic"
DEFAULT_HOME = REPO_ROOT / "build" / "bench" / "elastic"


def register(main: click.Group) -> None:
    bench_cmd.add_subcommand(main, elastic)


def _rates(text: str) -> list[float]:
    try:
        return [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise UserError(f"--rates must be comma-separated numbers, got '{text}'") from None


@click.command("elastic")
@click.option("--repeat", type=int, default=3, show_default=True, help="Repetitions (each runs all three placements, order rotated).")
@click.option("--rates", default="200,600,1200", show_default=True, help="Top-K input steps, tuples/s.")
@click.option("--dwell", "dwell_s", type=float, default=15.0, show_default=True, help="Seconds at each rate.")
@click.option("--settle", "settle_s", type=float, default=5.0, show_default=True,
              help="Seconds at the start of each step left out of its figures.")
@click.option("--link-bandwidth", default="10mbit", show_default=True, help="Each node's shaped egress link (netns only).")
@click.option("--network", type=click.Choice(["auto", "netns", "loopback"]), default="auto", show_default=True,
              help="auto: netns nodes with shaped links where namespaces can be made (root), else loopback.")
@bench_cmd.result_options("results/elastic/<date-time>.json", DEFAULT_HOME, 19700)
def elastic(repeat, rates, dwell_s, settle_s, link_bandwidth, network, out, home, port_base) -> None:
    """The Elastic Allocator experiment scaled to this machine: word count and join in the background,
    then Top-K placed by the Elastic Allocator, Random and Storm's even placement in turn, its input
    stepped through --rates; per node CPU and link utilisation (mean R_utl, deviation R_dev) and
    Top-K's throughput and latency, with n, median and min-max per placement and rate."""
    from pycontrol.bench.elastic.runner import run_elastic

    out = (out or DEFAULT_OUT / f"{time.strftime('%Y%m%d-%H%M%S')}.json").resolve()

    def echo(msg: str) -> None:
        click.echo(f"{time.strftime('%H:%M:%S')} {msg}")

    doc = run_elastic(home.resolve(), out, echo, port_base=port_base, repeat=repeat, rates=_rates(rates),
                      dwell_s=dwell_s, settle_s=settle_s, link_bandwidth=link_bandwidth, network=network)
    for line in doc["summary_lines"]:
        click.echo(line)
    click.echo(f"wrote {out}")
