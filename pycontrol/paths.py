"""Where the build outputs live: Maven writes everything a cluster runs under build/dist."""

from __future__ import annotations

import os
from pathlib import Path

from pycontrol.errors import UserError

REPO_ROOT = Path(__file__).resolve().parents[1]


def dist_dir() -> Path:
    """build/dist of this checkout, or $PYCONTROL_DIST (e.g. an installed artifact directory)."""
    return Path(os.environ.get("PYCONTROL_DIST", REPO_ROOT / "build" / "dist")).resolve()


def require_dist() -> Path:
    """The dist dir, or a UserError that says how to build it."""
    d = dist_dir()
    missing = [p for p in ("storm/lib", "storm/lib-worker", "storm/lib-webapp", "zookeeper")
               if not any((d / p).glob("*.jar"))]
    if missing:
        raise UserError(
            f"Storm/ZooKeeper jars missing under {d} ({', '.join(missing)}): build them with "
            f"`mvn -q package` in {REPO_ROOT} (downloads from Maven Central), or set PYCONTROL_DIST")
    return d
