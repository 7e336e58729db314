"""`pycontrol plan --scheduler NAME --input FILE [--json]`: run one scheduler offline.

The schedulers are Java (their one home is the scheduling plugin), so this runs the plugin jar's
PlanCli on Storm's own lib/ and passes its output through. Input format:
storm-plugins/scheduling/PLAN-INPUT.md.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from pycontrol.errors import UserError
from pycontrol.jvm import plancli


def register(main: click.Group) -> None:
    main.add_command(plan_cmd)


@click.command("plan")
@click.option("--scheduler", "-s", required=True, metavar="NAME",
              help="aniello-offline, aniello-online, aniello-online-refined, dsm, sam, elastic, otd, "
                   "storm-default, storm-ras or optimum.")
@click.option("--input", "-i", "input_path", required=True,
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Cluster, topologies and metrics as JSON (storm-plugins/scheduling/PLAN-INPUT.md).")
@click.option("--json", "as_json", is_flag=True, help="Print the plan and its metrics as JSON.")
@click.option("--timeout", "timeout_s", type=click.FloatRange(min=1), default=600, show_default=True,
              help="Seconds before planning is given up.")
def plan_cmd(scheduler: str, input_path: Path, as_json: bool, timeout_s: float) -> None:
    """Place the topologies of INPUT with one scheduler, offline, and print the placement with its
    inter-node traffic, per-node load, slots used and constraint violations."""
    args = ["--scheduler", scheduler, "--input", str(input_path)] + (["--json"] if as_json else [])
    done = plancli.run_once(args, timeout_s)
    if done.returncode == plancli.OK:
        click.echo(done.stdout, nl=False)
        return
    if done.returncode == plancli.BAD_INPUT:
        raise UserError(_first_error_line(done.stderr))
    if done.returncode == plancli.NO_PLACEMENT:
        if as_json:
            click.echo(done.stdout, nl=False)
        raise UserError(_no_placement_reason(done.stdout, scheduler), exit_code=plancli.NO_PLACEMENT)
    raise UserError(plancli.failure(done))


def _first_error_line(stderr: str) -> str:
    for line in stderr.splitlines():
        if line.startswith("error: "):
            return line[len("error: "):]
    lines = [line for line in stderr.splitlines() if line.strip()]
    return lines[-1] if lines else "the planner rejected its arguments"


def _no_placement_reason(stdout: str, scheduler: str) -> str:
    try:
        return f"{scheduler} found no placement: {json.loads(stdout)['error']}"
    except (ValueError, KeyError, TypeError):
        return stdout.strip() or f"{scheduler} found no placement"
