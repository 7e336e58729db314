"""Options shared by several commands."""

from __future__ import annotations

import os
from pathlib import Path

import click

from pycontrol import zkauth

DEFAULT_HOME = Path(os.environ.get("XDG_STATE_HOME", Path.home() / ".local" / "state")) / "nonstop-storm" / "local"


def cluster_home() -> Path:
    return Path(os.environ.get("PYCONTROL_HOME", DEFAULT_HOME)).resolve()


home_option = click.option(
    "--home", type=click.Path(file_okay=False, path_type=Path), default=None,
    help=f"Directory of the local cluster (default: $PYCONTROL_HOME or {DEFAULT_HOME}).")


def resolve_home(home: Path | None) -> Path:
    return home.resolve() if home else cluster_home()


def zk_auth(home: Path | None) -> zkauth.ZkAuth | None:
    """Credentials for the cluster's ZooKeeper: $PYCONTROL_ZK_AUTH ("user:password", for a cluster named
    with --zk), else those in the local cluster's storm.yaml (the conf its daemons use)."""
    from pycontrol.cluster.secrets import cluster_zk_auth

    return zkauth.from_env() or cluster_zk_auth(resolve_home(home))
