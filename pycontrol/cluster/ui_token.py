"""The UI REST server's bearer token (nonstop.ui.token), read back from the control conf's storm.yaml, where
`cluster up` writes it (generated with the cluster's other secrets: pycontrol.cluster.secrets)."""

from __future__ import annotations

from pathlib import Path

import yaml

from pycontrol.cluster.layout import Layout
from pycontrol.cluster.spec import ClusterSpec
from pycontrol.errors import UserError
from pycontrol.storm.rest import TOKEN_KEY, StormRest

def read(conf_dir: Path) -> str | None:
    """The token in conf_dir/storm.yaml, or None when that file sets none."""
    path = conf_dir / "storm.yaml"
    try:
        conf = yaml.safe_load(path.read_text()) or {}
    except FileNotFoundError:
        return None
    except (OSError, yaml.YAMLError) as e:
        raise UserError(f"cannot read {TOKEN_KEY} from {path}: {e.__class__.__name__}: {e}") from e
    token = conf.get(TOKEN_KEY) if isinstance(conf, dict) else None
    return str(token) if token not in (None, "") else None


def rest_client(spec: ClusterSpec, timeout_s: float = 10.0) -> StormRest:
    """A REST client of the local cluster, carrying its token for kills and rebalances."""
    return StormRest(spec.ui_url, timeout_s=timeout_s, token=read(Layout(spec.home).control_conf_dir))
