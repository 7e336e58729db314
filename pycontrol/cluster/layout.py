"""The directory tree of one local cluster under its home directory. Pure path arithmetic."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Layout:
    home: Path

    @property
    def state_file(self) -> Path:
        return self.home / "state.json"

    @property
    def secrets_file(self) -> Path:
        """The cluster's ZooKeeper credentials and UI token (pycontrol/cluster/secrets.py), mode 0600."""
        return self.home / "secrets.json"

    @property
    def storm_home(self) -> Path:
        return self.home / "storm"

    @property
    def control_conf_dir(self) -> Path:
        """storm.yaml of Nimbus, the UI and clients."""
        return self.storm_home / "conf"

    @property
    def log4j_dir(self) -> Path:
        return self.storm_home / "log4j2"

    @property
    def zk_dir(self) -> Path:
        return self.home / "zookeeper"

    @property
    def logs(self) -> Path:
        return self.home / "logs"

    @property
    def nimbus_local_dir(self) -> Path:
        return self.home / "nimbus" / "local"

    def node_dir(self, node_name: str) -> Path:
        return self.home / "nodes" / node_name

    def node_conf_dir(self, node_name: str) -> Path:
        return self.node_dir(node_name) / "conf"

    def node_local_dir(self, node_name: str) -> Path:
        return self.node_dir(node_name) / "local"

    def node_log_dir(self, node_name: str) -> Path:
        return self.logs / node_name

    def process_log(self, process_name: str) -> Path:
        """stdout+stderr of a daemon we start (the daemon's own log4j log sits beside it)."""
        return self.logs / f"{process_name}.out"
