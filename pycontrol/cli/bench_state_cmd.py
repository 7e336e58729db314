"""`pycontrol bench state-size`: joins the `bench` group of bench_cmd (listed before this module)."""

from __future__ import annotations

import time

import click

from pycontrol.cli import bench_cmd
from pycontrol.paths import REPO_ROOT

DEFAULT_OUT = REPO_ROOT / "results" / "state_size"
DEFAULT_HOME = REPO_ROOT / "build" / "bench" / "state-size"


def register(main: click.Group) -> None:
    bench_cmd.add_subcommand(main, state_size)


@click.command("state-size")
@click.option("--sizes", default="1KB,1MB,10MB,50MB", show_default=True,
              help="State per keep task, comma-separated (KB, MB); each runs as its own topology.")
@click.option("--ways", default="nonstop,nonstop-stateful,storm-restart", show_default=True,
              help="nonstop: a live move, the keep bolt opts in to the suite's handoff; nonstop-stateful: a live "
                   "move of Storm's stateful bolt over a file-backed provider (only what the files lack is handed "
                   "over); storm-restart: stock Storm relaunches the workers and the same stateful bolt restores "
                   "the last checkpoint.")
@click.option("--repeat", type=int, default=3, show_default=True, help="Repetitions, the ways' order rotated.")
@click.option("--rate", type=int, default=100, show_default=True, help="Sentences/s.")
@click.option("--moves", type=int, default=2, show_default=True, help="Moves per topology (to the spare and back).")
@click.option("--period", "period_s", type=int, default=45, show_default=True,
              help="Seconds between moves (Storm's way relaunches two workers in each).")
@bench_cmd.result_options("results/state_size/<date-time>.json", DEFAULT_HOME, 19300)
def state_size(sizes, ways, repeat, rate, moves, period_s, out, home, port_base) -> None:
    """A keep bolt holding each --sizes of state, its executor moved live between workers: move time and
    where it goes, the longest wait of a tuple, p99 after the move against steady, failed and replayed
    tuples and whether the counts stay exact, against Storm's way (restart, checkpoint, replay). n per
    way and size over --repeat runs. Run it alone on the machine."""
    from pycontrol.bench.state_size import design
    from pycontrol.bench.state_size.runner import run_benchmark

    opts = design.make_options(sizes, ways, repeat, rate, moves, period_s)
    out = (out or DEFAULT_OUT / f"{time.strftime('%Y%m%d-%H%M%S')}.json").resolve()
    per_topology = 60 + (moves + 1) * period_s + 30
    click.echo(f"{len(opts.ways) * repeat} clusters, {len(opts.sizes)} topologies each: about "
               f"{len(opts.ways) * repeat * (60 + len(opts.sizes) * per_topology) / 60:.0f} min")

    def echo(msg: str) -> None:
        click.echo(f"{time.strftime('%H:%M:%S')} {msg}")

    doc = run_benchmark(opts, home.resolve(), port_base, out, echo)
    for row in doc["summary"]:
        gap = row["longest_ack_gap_ms"] or {}
        click.echo(f"{row['way']:<14} {design.size_label(row['state_bytes']):>6}  runs {row['runs']}  moves "
                   f"{row['moves']}  longest ack gap median {gap.get('median', '-')} ms  exact "
                   f"{row['exact_runs']}/{row['checked_runs']}")
    click.echo(f"wrote {out}")
