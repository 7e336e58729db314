"""`pycontrol bench migration`: nonstop migration against Storm's rebalance and worker-restart migration,
each scheme on its own fresh local cluster (pycontrol.bench.migration)."""

from __future__ import annotations

import time
from pathlib import Path

import click

from pycontrol.bench.migration import schemes, spread
from pycontrol.bench.migration.runner import run_benchmark
from pycontrol.paths import REPO_ROOT

DEFAULT_OUT = REPO_ROOT / "results" / "migration"
DEFAULT_HOME = REPO_ROOT / "build" / "bench" / "migration"


def add_subcommand(main: click.Group, command: click.Command) -> None:
    """A `pycontrol bench <name>` command defined in a module of its own."""
    group = main.commands.get("bench")
    if not isinstance(group, click.Group):
        raise RuntimeError(f"pycontrol.cli.bench_cmd must be registered before bench {command.name}")
    group.add_command(command)


def result_options(default_out: str, home: Path, port_base: int):
    """The options of a benchmark that writes one result JSON and runs its own cluster: --out (default
    `default_out`, said in the help), --home and --port-base of that cluster."""
    def wrap(f):
        f = click.option("--port-base", type=int, default=port_base, show_default=True,
                         help="Port base of the cluster.")(f)
        f = click.option("--home", type=click.Path(file_okay=False, path_type=Path), default=home, show_default=True,
                         help="Directory of the benchmark's cluster.")(f)
        return click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
                            help=f"Result JSON [default: {default_out}].")(f)
    return wrap


def register(main: click.Group) -> None:
    main.add_command(bench)


@click.group()
def bench() -> None:
    """Benchmarks on fresh local clusters; results (JSON, PNG) under results/."""


@bench.command("migration")
@click.option("--quick", is_flag=True,
              help=f"Short check: {schemes.QUICK['duration_s']} s segments, "
                   f"a move every {schemes.QUICK['period_s']} s, M in {','.join(map(str, schemes.QUICK['moves']))} "
                   f"(about 25 minutes for all schemes).")
@click.option("--schemes", "scheme_names", default="all", show_default=True,
              help=f"Comma-separated: {', '.join(schemes.MOVING)} (or all). The no-migration baseline always runs.")
@click.option("--moves", default=None,
              help="M values, executors moved per re-deployment [default: 1,2,4,8,16; --quick: 1,4].")
@click.option("--duration", type=int, default=None, help="Seconds per segment [default: 600; --quick: 120].")
@click.option("--period", type=int, default=None, help="Seconds between re-deployments [default: 60; --quick: 30].")
@click.option("--sweep", default=None, metavar="TS:TW,...",
              help="Also run nonstop+ without push at these T_S:T_W cycles in seconds (T_S = Nimbus's round, "
                   "whole seconds), at the largest M, e.g. 10:3,6:2,3:1,1:0.3.")
@click.option("--rate", type=int, default=400, show_default=True,
              help="Sentences/s of the word count's spout; must be below saturation (the baseline's verdict says).")
@click.option("--rebalance-wait", type=int, default=None,
              help="Seconds Storm's rebalance keeps the topology deactivated [default: min(30, period/2)].")
@click.option("--repeat", type=int, default=3, show_default=True,
              help="Run every cluster this many times, the order rotated by one between repetitions; a run that "
                   "starts on a busy machine (1-min load > 0.75 x CPUs) is flagged and run once more.")
@click.option("--move-spouts", is_flag=True,
              help="The driver may also move the spout's and the ackers' executors (default: bolts only).")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the random re-deployment driver.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help=f"Output directory [default: {DEFAULT_OUT.relative_to(REPO_ROOT)}, --quick: .../quick].")
@click.option("--home", type=click.Path(file_okay=False, path_type=Path), default=DEFAULT_HOME, show_default=True,
              help="Directory for the clusters (one subdirectory per scheme; logs are kept).")
@click.option("--port-base", type=int, default=19000, show_default=True, help="Port base of the clusters.")
def migration(quick, scheme_names, moves, duration, period, sweep, rate, rebalance_wait, repeat, move_spouts, seed,
              out, home, port_base) -> None:
    """Random re-deployments of the word count under rebalance, worker-restart, nonstop and nonstop+
    migration: per-second throughput and latency, seconds of degradation vs a no-migration baseline,
    plan-to-effect times."""
    opts = schemes.make_options(quick, scheme_names, moves, duration, period, sweep, rate, seed, rebalance_wait,
                                repeat, move_spouts)
    out = (out or (DEFAULT_OUT / "quick" if quick else DEFAULT_OUT)).resolve()
    runs = schemes.plan_runs(opts)
    n_segments = sum(len(r.segments) for r in runs)
    # ~2.5 min per cluster for start-up, warm-up and teardown on a 2-core machine.
    estimate = opts.repeat * (len(runs) * 150 + n_segments * opts.duration_s) / 60
    click.echo(f"{len(runs)} clusters, {n_segments} segments of {opts.duration_s} s, {opts.repeat} repetition(s): "
               f"about {estimate:.0f} min")

    def echo(msg: str) -> None:
        click.echo(f"{time.strftime('%H:%M:%S')} {msg}")

    doc, written = run_benchmark(opts, home.resolve(), port_base, out, echo)
    click.echo(f"baseline: {doc['baseline']['throughput_mean'] if doc['baseline'] else '?'} acked/s")
    click.echo(f"{'segment':<22}{'>=20%':>6}{'40%':>5}{'60%':>5}{'80%':>5}{'100%':>5}{'acked':>9}{'p50 ms':>9}"
               f"{'p99 ms':>9}{'failed':>8}{'eff p50':>9}{'eff p99':>9}{'restarts':>9}")
    for row in doc["table"]:
        d = row["degradation_s"] or {}
        click.echo(f"{row['segment']:<22}" + "".join(f"{d.get(str(lv), '-'):>{6 if lv == 20 else 5}}"
                                                      for lv in (20, 40, 60, 80, 100))
                   + f"{row['acked']:>9}{_num(row['latency_p50_ms']):>9}{_num(row['latency_p99_ms']):>9}"
                   + f"{row['failed']:>8}{_num(row['plan_to_effect_p50_ms']):>9}{_num(row['plan_to_effect_p99_ms']):>9}"
                   + f"{row['restarted_workers']:>9}")
    click.echo("per configuration over repetitions: median [min-max]")
    click.echo(f"{'configuration':<22}{'n':>3}{'s >=60%':>14}{'s 100%':>12}{'failed':>14}{'p99 ms':>18}"
               f"{'eff p50 ms':>20}")
    for row in doc["by_configuration"]:
        click.echo(f"{row['configuration']:<22}{row['n']:>3}{spread.text(row['degradation_60_s']):>14}"
                   f"{spread.text(row['degradation_100_s']):>12}{spread.text(row['failed']):>14}"
                   f"{spread.text(row['latency_p99_ms']):>18}{spread.text(row['plan_to_effect_p50_ms']):>20}")
    for p in written:
        click.echo(f"wrote {p}")


def _num(v) -> str:
    return "-" if v is None else f"{v:.0f}"
