"""Options shared by several commands."""

from __future__ import annotations

import os
from pathlib import Path

import click

DEFAULT_HOME = Path(os.environ.get("XDG_STATE_HOME", Path.home() / ".local" / "state")) / "nonstop-storm" / "local"


def cluster_home() -> Path:
    return Path(os.environ.get("PYCONTROL_HOME", DEFAULT_HOME)).resolve()


home_option = click.option(
    "--home", type=click.Path(file_okay=False, path_type=Path), default=None,
    help=f"Directory of the local cluster (default: $PYCONTROL_HOME or {DEFAULT_HOME}).")


def resolve_home(home: Path | None) -> Path:
    return home.resolve() if home else cluster_home()
