"""`pycontrol bench report`: joins the `bench` group of bench_cmd (listed before this module)."""

from __future__ import annotations

from pathlib import Path

import click

from pycontrol.bench.report import build, render
from pycontrol.bench.report.files import read_results
from pycontrol.cli import bench_cmd
from pycontrol.paths import REPO_ROOT

DEFAULT_RESULTS = REPO_ROOT / "results"


def register(main: click.Group) -> None:
    bench_cmd.add_subcommand(main, report)


@click.command("report")
@click.option("--results", "results_dir", type=click.Path(file_okay=False, path_type=Path), default=DEFAULT_RESULTS,
              show_default=True, help="The results directory to read; REPORT.md and report.html are written into it.")
def report(results_dir: Path) -> None:
    """Rebuild results/REPORT.md and results/report.html from the result JSON files: one section per
    headline, each result file a table (n, median, spread, date, machine load, command)."""
    results_dir = results_dir.resolve()
    docs, figures, broken = read_results(results_dir)
    sections = build.build(docs, figures)
    unread = build.unread(docs)
    (results_dir / "REPORT.md").write_text(render.markdown(sections, unread))
    (results_dir / "report.html").write_text(render.page(sections, unread))
    tables = [t for s in sections for t in s.tables]
    bad = [f"{t.source}: {t.note}" for t in tables if t.note.startswith(build.UNREADABLE)] + broken
    click.echo(f"{len(sections)} sections, {len(tables)} result files, "
               f"{sum(len(s.figures) for s in sections)} figures, {len(unread)} files not summarised")
    for line in bad:
        click.echo(f"unreadable: {line}", err=True)
    click.echo(f"wrote {results_dir / 'REPORT.md'}")
    click.echo(f"wrote {results_dir / 'report.html'}")
    if bad:
        raise click.exceptions.Exit(1)
