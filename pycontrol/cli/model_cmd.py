"""`pycontrol model build|table`: performance models of tasks, measured on the local cluster."""

from __future__ import annotations

import json
import signal
import sys
import time
from pathlib import Path

import click
import yaml

from pycontrol.cli.common import home_option, resolve_home
from pycontrol.cluster import ui_token
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.manager import State
from pycontrol.errors import UserError
from pycontrol.profiling.harness import BuildSettings, ClusterTarget, build_model, machine_facts
from pycontrol.profiling.sweep import SearchSettings
from pycontrol.profiling.table import TableError, table_document
from pycontrol.profiling.tasks import TASKS, find_task
from pycontrol.profiling.trials import TrialSettings


def register(main: click.Group) -> None:
    main.add_command(model)


@click.group()
def model() -> None:
    """Performance models τ -> (peak rate, CPU, memory) of tasks, for `pycontrol allocate --models`."""


def _threads(value: str) -> tuple[int, ...]:
    try:
        counts = tuple(int(x) for x in value.split(",") if x.strip())
    except ValueError:
        raise UserError(f"--threads must be whole numbers separated by commas, got '{value}'") from None
    if not counts or any(c < 1 for c in counts) or list(counts) != sorted(set(counts)):
        raise UserError(f"--threads must be increasing, distinct numbers >= 1, got '{value}'")
    return counts


class _PlainDumper(yaml.SafeDumper):
    """No &anchors/*aliases for values that happen to be shared: the file is for people too."""

    def ignore_aliases(self, data):
        return True


def _write_table(doc: dict, out: Path | None) -> None:
    text = yaml.dump(doc, Dumper=_PlainDumper, sort_keys=False, width=110)
    if out is None:
        click.echo(text)
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("# Measured performance models (pycontrol model build); format: pycontrol/sizing/models.py\n"
                   + text, encoding="utf-8")
    click.echo(f"model table: {out}")


@model.command("build")
@click.argument("task")
@click.option("--threads", default="1,2,4", show_default=True, help="Thread counts τ to profile, increasing.")
@click.option("--max-minutes", type=float, default=6.0, show_default=True, help="Time budget of the whole sweep.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Model table file (YAML); default: print it.")
@click.option("--log", "log_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Run log (JSON) with every trial; default: next to --out, else under the cluster home.")
@click.option("--start-rate", type=float, default=None, help="First rate tried with the first τ (t/s); "
              "default: derived from the latency at a low rate.")
@click.option("--trial-secs", type=float, default=15.0, show_default=True, help="Length of one rate trial.")
@click.option("--warmup-secs", type=float, default=4.0, show_default=True, help="Unjudged start of each trial.")
@click.option("--precision", type=float, default=0.1, show_default=True,
              help="Stop bisecting when the bracket is within this fraction of its top.")
@click.option("--max-slope", type=float, default=10.0, show_default=True,
              help="Stable only if the median latency grows at most this many ms per s.")
@click.option("--min-slope", type=float, default=-0.001, show_default=True,
              help="Stop adding threads once the peak rate's slope over the last thread counts is below this.")
@click.option("--start-timeout", type=float, default=1200.0, show_default=True,
              help="Seconds a harness topology may take to run steadily at the warm rate (busy machines: more).")
@click.option("--slot-memory-mb", type=float, default=None,
              help="Memory of one slot, for memory as a fraction of a slot (default: RAM / the cluster's slots).")
@click.option("--set", "settings", multiple=True, metavar="KEY=VALUE",
              help="Extra harness topology setting, e.g. workload.blob.latency.ms=100 (repeatable).")
@home_option
def build_cmd(task, threads, max_minutes, out, log_file, start_rate, trial_secs, warmup_secs, precision, max_slope,
              min_slope, start_timeout, slot_memory_mb, settings, home) -> None:
    """Profile TASK on the local cluster and write its model table.

    Per thread count: source -> TASK with τ threads alone on one slot -> sink; the rate rises
    (coarse doubling, then bisection) while the latency stays flat. TASK is one of:
    """
    profiled = find_task(task)
    layout = Layout(resolve_home(home))
    state = State.load(layout)
    if state is None:
        raise UserError("no local cluster running: start one with `pycontrol cluster up`")
    spec = state.spec
    slots = spec.total_slots
    if slot_memory_mb is None:
        slot_memory_mb = round(machine_facts()["memory_mb"] / slots)
    try:
        bs = BuildSettings(threads=_threads(threads), max_minutes=max_minutes, start_rate=start_rate,
                           slot_memory_mb=slot_memory_mb, min_slope=min_slope, topology_settings=tuple(settings),
                           search=SearchSettings(precision=precision),
                           trials=TrialSettings(trial_secs=trial_secs, warmup_secs=warmup_secs,
                                                max_slope_ms_per_s=max_slope, settle_timeout_secs=start_timeout))
    except ValueError as e:
        raise UserError(str(e)) from e
    target = ClusterTarget(ui_token.rest_client(spec), layout.control_conf_dir, layout.logs,
                           layout.home / "profiling", spec.nodes, spec.slots)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    if log_file is None:
        log_file = (out.with_name(out.stem + ".run.json") if out is not None
                    else layout.home / "profiling" / f"{profiled.model}-{stamp}.run.json")

    def echo(msg: str) -> None:
        click.echo(f"{time.strftime('%H:%M:%S')} {msg}", err=True)

    # A plain `kill` ends the sweep like Ctrl-C: the harness topologies are killed on the way out.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    run_log = build_model(profiled, target, bs, log=echo)
    log_file.parent.mkdir(parents=True, exist_ok=True)
    log_file.write_text(json.dumps(run_log, indent=1), encoding="utf-8")
    echo(f"sweep took {run_log['wall_seconds']:.0f} s ({run_log['stopped']}); run log: {log_file}")
    try:
        doc = table_document([run_log], [str(log_file)])
    except TableError as e:
        raise UserError(str(e)) from e
    _write_table(doc, out)


build_cmd.help = (build_cmd.help or "") + "\n\n    " + "; ".join(
    f"{t.model} ({'/'.join(t.aliases)}): {t.description}" for t in TASKS) + "."


@model.command("table")
@click.argument("logs", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Model table file (YAML); default: print it.")
def table_cmd(logs, out) -> None:
    """One model table from the run logs of `model build` (one log per task)."""
    docs = []
    for p in logs:
        try:
            docs.append(json.loads(p.read_text(encoding="utf-8")))
        except ValueError as e:
            raise UserError(f"{p}: not JSON: {e}") from e
    try:
        doc = table_document(docs, [str(p) for p in logs])
    except TableError as e:
        raise UserError(str(e)) from e
    _write_table(doc, out)
