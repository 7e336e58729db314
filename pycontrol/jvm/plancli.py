"""The scheduling plugin's planner entry points: the one-shot PlanCli (`pycontrol plan`) and the
long-lived PlanServer (the controller: pycontrol.jvm.planner_process). Both share PlanCli's exit codes,
which a PlanServer reply carries as `exit`."""

from __future__ import annotations

import subprocess

from pycontrol.jvm import classpath
from pycontrol.jvm.command import ExitCodes, JavaCommand, failure_message, run

PLAN_MAIN = "io.nonstopstorm.scheduling.cli.PlanCli"
SERVER_MAIN = "io.nonstopstorm.scheduling.cli.PlanServer"
# PlanCli's exit codes (PlanCli.java)
OK, NO_PLACEMENT, BAD_INPUT, INTERNAL_ERROR = 0, 1, 2, 3
EXIT_CODES = ExitCodes({NO_PLACEMENT: "no placement", BAD_INPUT: "bad input", INTERNAL_ERROR: "internal error"})


def command(args: list[str]) -> JavaCommand:
    return JavaCommand(PLAN_MAIN, tuple(args), classpath.planner(), what="the planner")


def run_once(args: list[str], timeout_s: float) -> subprocess.CompletedProcess:
    """PlanCli once with `args`; a JvmError if it cannot start or outlives the timeout."""
    return run(command(args), timeout_s, timeout_hint="raise --timeout")


def failure(done: subprocess.CompletedProcess) -> str:
    return failure_message(JavaCommand(PLAN_MAIN, what="the planner"), done, EXIT_CODES)
