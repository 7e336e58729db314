"""One command module's click commands on a fresh group, invoked through click's CliRunner, so a test
does not depend on the other command modules."""

from __future__ import annotations

from collections.abc import Callable

import click
from click.testing import CliRunner, Result


def invoker(register: Callable[[click.Group], None], *command: str) -> Callable[..., Result]:
    """A function that runs `command` (e.g. "trace", "prepare") with its arguments, as str."""
    @click.group()
    def main():
        pass

    register(main)
    runner = CliRunner()
    return lambda *args: runner.invoke(main, [*command, *map(str, args)])
