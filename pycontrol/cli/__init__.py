"""The `pycontrol` command: one click group; each concern adds its subcommands in its own module."""

from __future__ import annotations

import importlib
import logging
import sys

import click

from pycontrol.errors import UserError

# Modules that each define `register(main)`; one line per concern keeps this file conflict-free.
COMMAND_MODULES = [
    "pycontrol.cli.allocate_cmd",
    "pycontrol.cli.cluster_cmd",
    "pycontrol.cli.topology_cmd",
    "pycontrol.cli.demo_cmd",
    "pycontrol.cli.migrate_cmd",
    "pycontrol.cli.workload_cmd",
    "pycontrol.cli.trace_cmd",
    "pycontrol.cli.plan_cmd",
    "pycontrol.cli.inspect_cmd",
    "pycontrol.cli.metrics_cmd",
    "pycontrol.cli.run_cmd",
    "pycontrol.cli.simulate_cmd",
    "pycontrol.cli.bench_cmd",
    "pycontrol.cli.bench_otd_cmd",
    "pycontrol.cli.bench_elastic_cmd",
    "pycontrol.cli.bench_state_cmd",
    "pycontrol.cli.bench_report_cmd",
    "pycontrol.cli.model_cmd",
]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-v", "--verbose", count=True, help="More log output (-vv for debug).")
def main(verbose: int) -> None:
    """Control plane of the nonstop Storm suite."""
    level = logging.WARNING - 10 * min(verbose, 2)
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")


for _name in COMMAND_MODULES:
    importlib.import_module(_name).register(main)


def run() -> None:
    """Entry point: a UserError becomes one clear line on stderr and exit code 2."""
    try:
        main(standalone_mode=False)
    except UserError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(e.exit_code)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as e:
        e.show()
        sys.exit(e.exit_code)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
