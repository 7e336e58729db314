"""The Storm releases a local cluster can run, and where the build puts each one's STORM_HOME parts.

The Maven build (storm-plugins/storm-home) assembles STORM_HOME's lib, lib-worker and lib-webapp and a
ZooKeeper server per release: the default under build/dist/storm and build/dist/zookeeper, the others
under build/dist/storm-<version> and build/dist/zookeeper-for-storm-<version>. The UI REST server (in
every lib-webapp) and the plugin jars (extlib) are compiled once, against the default release, and run on
every release listed here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pycontrol.errors import UserError

DEFAULT_STORM_VERSION = "2.8.3"
# Newest first; each one is a module pair in storm-plugins/storm-home/*/storm-<version>.
STORM_VERSIONS = ("2.8.3", "2.7.1", "2.6.4")


# The STORM_HOME directories the build assembles per release.
STORM_HOME_LIBS = ("lib", "lib-worker", "lib-webapp")


@dataclass(frozen=True)
class StormParts:
    storm: Path        # lib (the daemons' classpath), lib-worker (the workers'), lib-webapp (the UI REST server)
    zookeeper: Path    # the ZooKeeper server's jars

    def missing(self) -> list[Path]:
        dirs = [self.storm / name for name in STORM_HOME_LIBS] + [self.zookeeper]
        return [d for d in dirs if not any(d.glob("*.jar"))]


def check_version(version: str) -> str:
    """The version if a cluster can run it, else a UserError naming the ones it can."""
    if version not in STORM_VERSIONS:
        raise UserError(f"--storm-version must be one of {', '.join(STORM_VERSIONS)}, got '{version}'")
    return version


def parts(dist: Path, version: str) -> StormParts:
    """Where the build puts `version`'s parts under `dist` (whether or not they are built)."""
    check_version(version)
    if version == DEFAULT_STORM_VERSION:
        return StormParts(dist / "storm", dist / "zookeeper")
    return StormParts(dist / f"storm-{version}", dist / f"zookeeper-for-storm-{version}")


def require_parts(dist: Path, version: str) -> StormParts:
    """`version`'s parts, or a UserError that says which versions are built and how to build the rest."""
    found = parts(dist, version)
    if found.missing():
        have = built_versions(dist)
        raise UserError(f"Storm {version} is not built under {dist} (built: {', '.join(have) or 'none'}): "
                        f"build it with `mvn -q -DskipTests package`")
    return found


def built_versions(dist: Path) -> list[str]:
    """The versions whose parts are all built under `dist`, newest first."""
    return [v for v in STORM_VERSIONS if not parts(dist, v).missing()]
