"""`pycontrol plan --scheduler NAME --input FILE [--json]`: run one scheduler offline.

The schedulers are Java (their one home is the scheduling plugin), so this runs the plugin jar's
PlanCli on Storm's own lib/ and passes its output through. Input format:
storm-plugins/scheduling/PLAN-INPUT.md.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import click

from pycontrol.cluster.java import find_java
from pycontrol.errors import UserError
from pycontrol.paths import REPO_ROOT, dist_dir

PLAN_MAIN = "io.nonstopstorm.scheduling.cli.PlanCli"
# PlanCli's exit codes.
NO_PLACEMENT = 1
BAD_INPUT = 2


def register(main: click.Group) -> None:
    main.add_command(plan_cmd)


def planner_classpath() -> str:
    """The scheduling plugin jar, the metrics jar it depends on (the shared executor-span rule, as in
    Nimbus's extlib) and Storm's lib/ (Jackson, commons-cli and Storm's schedulers)."""
    d = dist_dir()
    jar = d / "extlib" / "nonstop-scheduling.jar"
    metrics = d / "extlib" / "nonstop-metrics.jar"
    lib = d / "storm" / "lib"
    if not jar.is_file() or not metrics.is_file() or not any(lib.glob("storm-server-*.jar")):
        raise UserError(f"the scheduling plugin or Storm's jars are missing under {d}: build them with "
                        f"`mvn -q -pl storm-plugins/scheduling -am package` in {REPO_ROOT}, or set PYCONTROL_DIST")
    return os.pathsep.join([str(jar), str(metrics), str(lib / "*")])


def run_planner(args: list[str], timeout_s: float) -> subprocess.CompletedProcess:
    command = [find_java(), "-cp", planner_classpath(), PLAN_MAIN, *args]
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired as e:
        raise UserError(f"planning took longer than {timeout_s:g} s and was stopped (raise --timeout)") from e
    except OSError as e:
        raise UserError(f"cannot run the planner: {e}") from e


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
    done = run_planner(args, timeout_s)
    if done.returncode == 0:
        click.echo(done.stdout, nl=False)
        return
    if done.returncode == BAD_INPUT:
        raise UserError(_first_error_line(done.stderr))
    if done.returncode == NO_PLACEMENT:
        if as_json:
            click.echo(done.stdout, nl=False)
        raise UserError(_no_placement_reason(done.stdout, scheduler), exit_code=NO_PLACEMENT)
    tail = [line for line in done.stderr.splitlines() if line.strip()][-3:]
    raise UserError(f"the planner failed (exit {done.returncode}): {' / '.join(tail) or 'no output'}")


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
