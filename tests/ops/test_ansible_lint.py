"""The Ansible tree passes ansible-lint (production profile, offline: no Galaxy here)."""

from __future__ import annotations

import pytest

from tests.ops.conftest import ANSIBLE_DIR, OPS_VENV, ops_bin, run

pytestmark = pytest.mark.ops


def test_ansible_lint_passes_offline(tmp_path):
    lint = ops_bin("ansible-lint")
    env = {"PATH": f"{OPS_VENV / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path), "ANSIBLE_LOCAL_TEMP": str(tmp_path)}
    p = run([lint, "--offline", "--nocolor"], cwd=ANSIBLE_DIR, env=env, timeout_s=600)
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-4000:]
    assert "Passed" in p.stdout + p.stderr
