"""Shared pieces of the operations tests (Ansible, Vagrant, Grafana): where the ops tools are, and
skips with a reason when a prerequisite is missing (`./nonstop setup` installs all of them)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ANSIBLE_DIR = REPO / "ansible"
GRAFANA_DIR = REPO / "grafana"
OPS_VENV = REPO / ".venv-ops"


def pytest_configure(config):
    config.addinivalue_line("markers", "ops: operations tooling (Ansible, Vagrant, Grafana); needs .venv-ops")


def ops_bin(name: str) -> Path:
    """A tool of the ops venv (ansible-playbook, ansible-lint, python), or skip."""
    path = OPS_VENV / "bin" / name
    if not path.exists():
        pytest.skip(f"{path} missing: `./nonstop setup` creates the ops venv")
    return path


def system_tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} not installed: `./nonstop setup` installs it (apt)")
    return path


def run(argv: list, timeout_s: float = 120, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=timeout_s, **kw)
