"""The project's Java classpaths, all from the build output (build/dist or $PYCONTROL_DIST)."""

from __future__ import annotations

from pathlib import Path

from pycontrol.errors import UserError
from pycontrol.paths import REPO_ROOT, dist_dir, require_dist

SCHEDULING_JAR = "extlib/nonstop-scheduling.jar"
METRICS_JAR = "extlib/nonstop-metrics.jar"
WORKLOADS_JAR = "topologies/nonstop-workloads.jar"
# Workloads that wire the project's stream groupings serialise them into the topology at submission,
# so the submitter needs their classes (the workers get them from extlib).
GROUPING_JAR = "extlib/nonstop-grouping.jar"
# Bolts that opt in to state handoff implement its interface (the workers get it from extlib too).
MIGRATION_JAR = "extlib/nonstop-migration.jar"


def planner() -> tuple[str, ...]:
    """The scheduling plugin jar, the metrics jar it depends on (the shared executor-span rule, as in
    Nimbus's extlib) and Storm's lib/ (Jackson, commons-cli and Storm's schedulers)."""
    d = dist_dir()
    jar, metrics, lib = d / SCHEDULING_JAR, d / METRICS_JAR, d / "storm" / "lib"
    if not jar.is_file() or not metrics.is_file() or not any(lib.glob("storm-server-*.jar")):
        raise UserError(f"the scheduling plugin or Storm's jars are missing under {d}: build them with "
                        f"`mvn -q -pl storm-plugins/scheduling -am package` in {REPO_ROOT}, or set PYCONTROL_DIST")
    return str(jar), str(metrics), str(lib / "*")


def workloads_jar(jar: Path | None = None) -> Path:
    """The workloads jar (or a given copy of it), checked."""
    jar = jar or require_dist() / WORKLOADS_JAR
    if not jar.is_file():
        raise UserError(f"{jar} missing: build it with `mvn -q package`")
    return jar


def workloads(jar: Path, *extra: str) -> tuple[str, ...]:
    """A Storm client's classpath for the workloads jar: the jar, Storm's worker libraries, then `extra`."""
    return str(jar), f"{require_dist() / 'storm' / 'lib-worker'}/*", *extra
