"""Where a topology's measurements are on the local cluster: every worker's artifacts directory,
<home>/logs/<node>/workers-artifacts/<topology id>/<port>/ (FeedSpout and the counting bolts write
there unless nonstop.measure.dir names another directory). On other clusters these directories are
on the worker hosts; collect them (e.g. with Ansible's fetch) and pass the copies with --dir."""

from __future__ import annotations

import re
from pathlib import Path


def topology_ids(logs_dir: Path, name: str) -> list[str]:
    """Ids of every run of the topology that left artifacts, oldest first."""
    pattern = re.compile(rf"^{re.escape(name)}-\d+-\d+$")
    found = {}
    for d in logs_dir.glob("*/workers-artifacts/*"):
        if d.is_dir() and pattern.match(d.name):
            found[d.name] = max(found.get(d.name, 0), d.stat().st_mtime)
    return sorted(found, key=lambda i: (int(i.rsplit("-", 1)[1]), found[i]))


def artifact_dirs(logs_dir: Path, topology_id: str) -> list[Path]:
    return sorted(p for p in logs_dir.glob(f"*/workers-artifacts/{topology_id}/*") if p.is_dir())
