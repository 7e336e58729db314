"""The UI REST server's bearer token (nonstop.ui.token), read back from the control conf's storm.yaml, where
`cluster up` writes it (generated with the cluster's other secrets: pycontrol.cluster.secrets)."""

from __future__ import annotations

from pathlib import Path

from pycontrol.cluster.layout import Layout
from pycontrol.cluster.secrets import read_storm_yaml
from pycontrol.cluster.spec import ClusterSpec
from pycontrol.storm.rest import TOKEN_KEY, StormRest


def read(conf_dir: Path) -> str | None:
    """The token in conf_dir/storm.yaml, or None when that file sets none."""
    conf = read_storm_yaml(conf_dir / "storm.yaml", TOKEN_KEY)
    token = conf.get(TOKEN_KEY) if isinstance(conf, dict) else None
    return str(token) if token not in (None, "") else None


def rest_client(spec: ClusterSpec, timeout_s: float = 10.0) -> StormRest:
    """A REST client of the local cluster, carrying its token for kills and rebalances."""
    return StormRest(spec.ui_url, timeout_s=timeout_s, token=read(Layout(spec.home).control_conf_dir))
