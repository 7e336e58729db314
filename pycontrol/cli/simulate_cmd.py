"""`pycontrol simulate grouping`: the Java grouping simulator on a keyed stream, with JSON and figures."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path

import click

from pycontrol.errors import UserError

STREAMS = ("zipf", "brown", "replay", "file")


def register(main: click.Group) -> None:
    main.add_command(simulate)


@click.group("simulate")
def simulate() -> None:
    """Simulations of the suite's algorithms."""


@simulate.command("grouping")
@click.option("--stream", type=click.Choice(STREAMS), default="zipf", show_default=True,
              help="zipf: synthetic Zipf keys; brown: words of the Brown corpus in order; replay: the keys of "
                   "a replay file (`pycontrol trace prepare`); file: a text file, one key per line.")
@click.option("--input", "input_path", type=click.Path(exists=True, path_type=Path),
              help="replay: the replay file or the `trace prepare` output directory; file: the keys file.")
@click.option("--zipf-exponent", type=float, default=1.0, show_default=True,
              help="zipf: exponent z (the paper's range is 0.5-2.0).")
@click.option("--keys", type=int, default=10_000, show_default=True, help="zipf: distinct keys.")
@click.option("--messages", type=int, default=1_000_000, show_default=True,
              help="Messages to simulate (at most this many from a brown/replay/file stream).")
@click.option("--workers", type=int, default=10, show_default=True)
@click.option("--sources", type=int, default=5, show_default=True)
@click.option("--schemes", default="kg,sg,pkg,potc,ch,porc,cg", show_default=True,
              help="Comma-separated, among kg, sg, pkg, potc, ch, porc, cg.")
@click.option("--capacities", type=click.Choice(("homogeneous", "heterogeneous", "changing")),
              default="homogeneous", show_default=True,
              help="heterogeneous: --strong-workers are --strong-factor times stronger; changing: capacities "
                   "change over the stream (--change, default: twice, total constant, as in the paper's Fig. 13).")
@click.option("--strong-workers", type=int, default=1, show_default=True)
@click.option("--strong-factor", type=float, default=2.0, show_default=True)
@click.option("--change", "changes", multiple=True, metavar="AT=c1,...,cW",
              help="changing: from message AT on the relative capacities are c1..cW (repeatable).")
@click.option("--load", type=float, default=0.8, show_default=True,
              help="Mean utilisation under perfectly proportional routing.")
@click.option("--epsilon", type=float, default=0.2, show_default=True, help="PoRC/CH/CG imbalance factor.")
@click.option("--virtual-workers", type=int, default=10, show_default=True, help="CG: virtual workers per worker.")
@click.option("--idle-below", type=float, default=0.7, show_default=True, help="CG: INCREASE below this utilisation.")
@click.option("--busy-above", type=float, default=0.9, show_default=True, help="CG: DECREASE above this utilisation.")
@click.option("--time-slot", type=int, default=None, help="CG: ticks between a worker's signals (default 500 x workers).")
@click.option("--signal-delivery", type=click.Choice(("piggyback", "immediate")), default="piggyback",
              show_default=True, help="CG: signals ride on acks (per source) or reach all sources at once.")
@click.option("--samples", type=int, default=200, show_default=True, help="Time-series windows.")
@click.option("--seed", type=int, default=42, show_default=True)
@click.option("--sweep", default=None, metavar="PARAM=v1,v2,...",
              help="One run per value: epsilon, workers, sources, virtual-workers, zipf-exponent, strong-factor or load.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Directory for the JSON results and the figures.")
@click.option("--plots/--no-plots", default=True, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the per-scheme summaries as JSON.")
def grouping(stream, input_path, zipf_exponent, keys, messages, workers, sources, schemes, capacities, strong_workers,
             strong_factor, changes, load, epsilon, virtual_workers, idle_below, busy_above, time_slot,
             signal_delivery, samples, seed, sweep, out_dir, plots, as_json) -> None:
    """Route a keyed stream with KG, SG, PKG, PoTC, CH, PoRC and CG to simulated workers and report imbalance,
    memory, queues and latency (the Java simulator drives the same classes as the Storm groupings)."""
    from pycontrol.grouping import simulator

    sweep_spec = simulator.parse_sweep(sweep) if sweep else None
    if sweep_spec and sweep_spec[0] == "zipf-exponent" and stream != "zipf":
        raise UserError("--sweep zipf-exponent needs --stream zipf")
    if stream in ("replay", "file") and input_path is None:
        raise UserError(f"--stream {stream} needs --input")
    if stream in ("zipf", "brown") and input_path is not None:
        raise UserError(f"--input is for --stream replay or file, not {stream}")
    request = simulator.Request(
        keys_file=None, zipf_exponent=zipf_exponent, keys=keys, messages=messages, workers=workers,
        sources=sources, schemes=tuple(s.strip().lower() for s in schemes.split(",") if s.strip()),
        capacities=capacities, strong_workers=strong_workers, strong_factor=strong_factor, changes=tuple(changes),
        load=load, epsilon=epsilon, virtual_workers=virtual_workers, idle_below=idle_below, busy_above=busy_above,
        time_slot=time_slot, signal_delivery=signal_delivery, samples=samples, seed=seed)
    out_dir.mkdir(parents=True, exist_ok=True)
    keys_file = _keys_file(stream, input_path, out_dir, messages)
    if keys_file is not None:
        request = replace(request, keys_file=keys_file)

    started = time.monotonic()

    def echo(line: str) -> None:
        click.echo(f"simulate [{time.monotonic() - started:5.1f} s] {line}", err=True)

    if sweep_spec:
        result = simulator.sweep(request, *sweep_spec, out_dir, echo=echo)
        (out_dir / "sweep.json").write_text(json.dumps(result, indent=1))
        figures = _sweep_figures(result, out_dir) if plots else []
        summaries = {f"{result['parameter']}={p['value']:g}": p["summaries"] for p in result["points"]}
        files = ["sweep.json", "points/", *figures]
    else:
        doc = simulator.run(request, out_dir / "simulation.json", echo=echo)
        figures = _run_figures(doc, out_dir) if plots else []
        summaries = {r["scheme"]: r["summary"] for r in doc["runs"]}
        files = ["simulation.json", *figures]
    if as_json:
        click.echo(json.dumps(summaries, indent=1))
    else:
        click.echo(render(summaries, bool(sweep_spec)))
        click.echo(f"written to {out_dir}: {', '.join(files)}")


def _keys_file(stream: str, input_path: Path | None, out_dir: Path, messages: int) -> Path | None:
    from pycontrol.grouping import streams
    if stream == "brown":
        return streams.brown_words_file()
    if stream == "replay":
        return streams.replay_keys_file(input_path, out_dir / "replay-keys.txt", limit=messages)[0]
    if stream == "file":
        if input_path.is_dir():
            raise UserError(f"--input {input_path} is a directory; --stream file needs a file of keys")
        return input_path
    return None


def _run_figures(doc: dict, out_dir: Path) -> list[str]:
    from pycontrol.grouping import plots
    plots.plot_timeseries(doc, out_dir / "timeseries.png")
    plots.plot_summary(doc, out_dir / "summary.png")
    names = ["timeseries.png", "summary.png"]
    if plots.plot_virtual_workers(doc, out_dir / "virtual-workers.png"):
        names.append("virtual-workers.png")
    return names


def _sweep_figures(result: dict, out_dir: Path) -> list[str]:
    from pycontrol.grouping import plots
    plots.plot_sweep(result, out_dir / "sweep.png")
    return ["sweep.png"]


def render(summaries: dict, sweep: bool) -> str:
    """One line per scheme (and per sweep value)."""
    lines = []
    groups = summaries.items() if sweep else [("", summaries)]
    for label, per_scheme in groups:
        if label:
            lines.append(label)
        for scheme, s in per_scheme.items():
            lines.append(f"  {scheme:<5} imbalance {s['imbalance_mean_second_half']:.4f}  memory "
                         f"{s['memory_normalised']:.3f}x keys  latency mean {s['latency_mean']:.1f} p99 "
                         f"{s['latency_p99']}  queue max {s['queue_max']}"
                         + (f"  VW moves {s['virtual_worker_moves']}" if scheme == "cg" else ""))
    return "\n".join(lines)
