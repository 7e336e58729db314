"""Which of a local cluster's running JVMs load the nonstop-migration agent: what makes a stock scheme
stock. `count_agents` is the pure rule over command lines; `agent_census` reads the cluster's processes
(daemons and workers, found by the cluster's marker)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import psutil

from pycontrol.cluster import processes
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.spec import ClusterSpec
from pycontrol.cluster.storm_conf import MIGRATION_AGENT_JAR, marker
from pycontrol.errors import UserError


def count_agents(cmdlines: Iterable[Sequence[str]]) -> dict[str, int]:
    """{"jvms": java processes, "with_agent": those with a -javaagent: flag naming the migration jar}."""
    jvms = [c for c in cmdlines if c and Path(c[0]).name == "java"]
    with_agent = [c for c in jvms if any(a.startswith("-javaagent:") and MIGRATION_AGENT_JAR in a for a in c)]
    return {"jvms": len(jvms), "with_agent": len(with_agent)}


def agent_census(spec: ClusterSpec) -> dict[str, int]:
    cmds = []
    for p in processes.find_strays(marker(Layout(spec.home)), spec.home):
        try:
            cmds.append(p.cmdline())
        except psutil.Error:
            continue   # ended meanwhile
    return count_agents(cmds)


class NotStock(UserError):
    """A stock scheme's cluster runs the agent somewhere: its runs would measure something else."""


def check_stock(name: str, census: dict[str, int]) -> None:
    """A stock scheme's run that finds the agent in any JVM measured something else: an error."""
    if census.get("with_agent", 0):
        raise NotStock(f"{name} is meant to be stock Storm, but {census['with_agent']} of its cluster's "
                        f"{census.get('jvms')} JVMs load the migration agent: its numbers would not be stock")
