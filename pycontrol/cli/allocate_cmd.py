"""`pycontrol allocate DAG --rate Ω --allocator lsa|mba`: threads per task and slots for a DAG."""

from __future__ import annotations

import json
import math
from pathlib import Path

import click

from pycontrol.sizing.allocate import ALLOCATORS, Allocation, allocate
from pycontrol.sizing.dag import builtin_dag_names, load_dag
from pycontrol.sizing.models import model_catalog
from pycontrol.sizing.vms import acquire_vms, price_per_hour


def register(main: click.Group) -> None:
    main.add_command(allocate_cmd)


@click.command("allocate")
@click.argument("dag")
@click.option("--rate", "omega", type=float, required=True, metavar="OMEGA",
              help="Input rate the DAG must sustain, tuples/s.")
@click.option("--allocator", type=click.Choice(sorted(ALLOCATORS)), default="mba", show_default=True,
              help="lsa: linear scaling from one thread (baseline); mba: model-based bundles.")
@click.option("--models", "models_file", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Model table file (YAML/JSON); its models add to or replace the "
                                 "built-in paper models of the same name.")
@click.option("--count-static", is_flag=True,
              help="Also sum static tasks (source, sink) into the slot count; the paper does not.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the allocation as JSON (the form a SAM scheduler reads from the topology conf).")
def allocate_cmd(dag: str, omega: float, allocator: str, models_file: Path | None,
                 count_static: bool, as_json: bool) -> None:
    """Size DAG (a file, or a built-in: see below) for input rate OMEGA.

    Prints threads, CPU and memory per task (fractions of one slot), the slot count
    ρ = max(⌈Σ cpu⌉, ⌈Σ memory⌉) and the VMs to rent for it.
    """
    graph = load_dag(dag)
    models = model_catalog(models_file)
    result = allocate(graph, models, omega, allocator, count_static=count_static)
    vms = acquire_vms(result.slots)
    if as_json:
        doc = result.to_json()
        doc["vms"] = [{"name": v.name, "slots": v.slots} for v in vms]
        click.echo(json.dumps(doc, indent=2))
        return
    click.echo(_table(result, models.origin))
    names = ", ".join(f"{v.name} ({v.slots})" for v in vms) or "none"
    click.echo(f"VMs: {names}  = US${price_per_hour(vms):.3f}/h")


allocate_cmd.help = (allocate_cmd.help or "") + (
    f"\n\n    Built-in DAGs: {', '.join(builtin_dag_names())}.")


def _table(a: Allocation, models_origin: str) -> str:
    header = ("task", "model", "rate t/s", "threads", "bundle", "CPU %", "mem %", "")
    rows = []
    for name, t in a.tasks.items():
        bundle = "-" if t.bundle_threads is None else f"{t.bundle_threads} @ {t.bundle_rate:g}"
        note = "" if name in a.counted else "not counted"
        rows.append((name, t.model, f"{t.input_rate:g}", str(t.threads), bundle,
                     f"{100 * t.cpu:.1f}", f"{100 * t.memory:.1f}", note))
    total = ("total", "", "", str(a.total_threads), "", f"{100 * a.cpu_total:.1f}",
             f"{100 * a.memory_total:.1f}", "counted tasks")
    widths = [max(len(r[i]) for r in (header, *rows, total)) for i in range(len(header))]
    right = {2, 3, 5, 6}

    def line(r):
        cells = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))]
        return "  ".join(cells).rstrip()

    rule = "-" * len(line(header))
    out = [f"DAG {a.dag} at {a.rate:g} t/s, allocator {a.allocator.upper()} (models: {models_origin})",
           line(header), rule, *map(line, rows), rule, line(total),
           f"slots ρ = max(⌈{a.cpu_total:.2f}⌉, ⌈{a.memory_total:.2f}⌉) = {a.slots}"]
    if math.isclose(a.cpu_total, 0.0) and math.isclose(a.memory_total, 0.0):
        out.append("(no counted task uses resources)")
    return "\n".join(out)
