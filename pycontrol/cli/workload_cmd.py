"""`pycontrol workload list|corpus|series|counts`: the workloads, their input, their measurements."""

from __future__ import annotations

import json
from pathlib import Path

import click

from pycontrol.cli.common import home_option, resolve_home
from pycontrol.cluster.layout import Layout
from pycontrol.errors import UserError
from pycontrol.storm import submit as storm_submit
from pycontrol.workloads import catalog, corpus, locate, outputs, series


def register(main: click.Group) -> None:
    main.add_command(workload)


@click.group()
def workload() -> None:
    """Workloads (topologies to submit), their input and their measurements."""


@workload.command("list")
def list_cmd() -> None:
    """Every workload `pycontrol topology submit` accepts."""
    for name, (module, cls) in sorted(catalog.python_topologies().items()):
        doc = (catalog.topology_class(name).__doc__ or "").strip().splitlines()
        click.echo(f"{name:<22} python  {module}.{cls}" + (f"  {doc[0]}" if doc else ""))
    for name, description in sorted(storm_submit.java_workloads().items()):
        click.echo(f"{name:<22} java    {description}")


@workload.command("corpus")
@click.option("--force", is_flag=True, help="Fetch and rebuild even if cached.")
def corpus_cmd(force) -> None:
    """Prepare the word counts' input (Brown corpus sentences, one per line); prints its path."""
    path = corpus.prepare(force=force)
    n = sum(1 for _ in path.open(encoding="ascii"))
    click.echo(f"{path} ({n} sentences)")


def _dirs(name: str, home: Path | None, dirs: tuple[Path, ...], run: str | None) -> tuple[str, list[Path]]:
    if dirs:
        return name, list(dirs)
    logs = Layout(resolve_home(home)).logs
    ids = [run] if run else locate.topology_ids(logs, name)
    if not ids:
        raise UserError(f"no measurements of a topology named '{name}' under {logs} "
                        f"(pass --dir for measurements copied from another cluster)")
    return ids[-1], locate.artifact_dirs(logs, ids[-1])


measure_options = [
    home_option,
    click.option("--dir", "dirs", multiple=True, type=click.Path(exists=True, file_okay=False, path_type=Path),
                 help="Read this directory instead of the local cluster's worker artifacts (repeatable)."),
    click.option("--id", "run", default=None, help="Topology id of an earlier run (default: the newest)."),
    click.option("--json", "as_json", is_flag=True, help="Print JSON."),
]


def with_measure_options(f):
    for opt in reversed(measure_options):
        f = opt(f)
    return f


@workload.command("series")
@click.argument("name")
@with_measure_options
def series_cmd(name, home, dirs, run, as_json) -> None:
    """Per-second throughput (acked/s), latency from intended emit time, failures and replays of a topology."""
    topo_id, found = _dirs(name, home, dirs, run)
    rows = series.read_series(found)
    if as_json:
        click.echo(json.dumps({"topology": topo_id, "seconds": [r.to_dict() for r in rows]}, indent=1))
        return
    if not rows:
        raise UserError(f"{topo_id}: no series written yet")
    click.echo(f"{topo_id}: {len(rows)} s")
    click.echo(f"{'t':>5} {'target':>8} {'emitted':>8} {'acked':>8} {'failed':>6} {'replay':>6} "
               f"{'mean ms':>9} {'p99 ms':>9} {'pending':>8} {'behind ms':>10}")
    t0 = rows[0].ts
    for r in rows:
        target = "-" if r.target_rate is None else f"{r.target_rate:g}"
        click.echo(f"{r.ts - t0:>5} {target:>8} {r.emitted:>8} {r.acked:>8} {r.failed:>6} {r.replayed:>6} "
                   f"{r.latency_mean_ms:>9.1f} {r.latency_p99_ms:>9.1f} {r.pending:>8} {r.behind_ms:>10.0f}")
    t = series.totals(rows)
    click.echo(f"total: emitted {t.emitted}, acked {t.acked}, failed {t.failed}, replayed {t.replayed}, "
               f"unreadable input lines {t.bad_lines}")


@workload.command("counts")
@click.argument("name")
@click.option("--component", default="count", show_default=True, help="The counting bolt.")
@click.option("--top", default=20, show_default=True, help="How many of the most frequent words to print.")
@with_measure_options
def counts_cmd(name, component, top, home, dirs, run, as_json) -> None:
    """The word counts a topology's counting bolts last wrote."""
    topo_id, found = _dirs(name, home, dirs, run)
    c = outputs.read_counts(found, component)
    if as_json:
        click.echo(json.dumps({"topology": topo_id, "tasks": c.tasks, "tuples": c.tuples, "counts": c.words}))
        return
    click.echo(f"{topo_id}: {c.tuples} words counted by {c.tasks} task(s), {len(c.words)} distinct")
    for word, n in c.words.most_common(top):
        click.echo(f"{n:>10}  {word}")
