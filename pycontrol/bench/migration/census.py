"""Which of a local cluster's running JVMs load the nonstop-migration agent: what makes a stock scheme
stock. `count_agents` is the pure rule over command lines and the JVM options a JVM also reads from its
environment (JAVA_TOOL_OPTIONS, JDK_JAVA_OPTIONS: an agent can be loaded there without showing on the
command line); `agent_census` reads the cluster's processes (daemons and workers, found by the
cluster's marker)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import psutil

from pycontrol.cluster import processes
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.spec import ClusterSpec
from pycontrol.cluster.storm_conf import MIGRATION_AGENT_JAR, marker
from pycontrol.errors import UserError


ENV_OPTIONS = ("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS")


def count_agents(cmdlines: Iterable[Sequence[str]], env_options: Iterable[str] | None = None) -> dict[str, int]:
    """{"jvms": java processes, "with_agent": those with a -javaagent: flag naming the migration jar, on
    the command line or in the JVM options of its environment}. env_options, when given, runs parallel
    to cmdlines: each process's options from ENV_OPTIONS joined ("" for none)."""
    rows = list(zip(cmdlines, env_options if env_options is not None else _blank()))
    jvms = [(c, e) for c, e in rows if c and Path(c[0]).name == "java"]
    with_agent = [1 for c, e in jvms if any(_agent(a) for a in (*c, *e.split()))]
    return {"jvms": len(jvms), "with_agent": len(with_agent)}


def _blank() -> Iterable[str]:
    while True:
        yield ""


def _agent(arg: str) -> bool:
    return arg.startswith("-javaagent:") and MIGRATION_AGENT_JAR in arg


def agent_census(spec: ClusterSpec) -> dict[str, int]:
    cmds, envs = [], []
    for p in processes.find_strays(marker(Layout(spec.home)), spec.home):
        try:
            cmd = p.cmdline()
            try:
                env = p.environ()
            except psutil.AccessDenied:
                env = {}
        except psutil.Error:
            continue   # ended meanwhile
        cmds.append(cmd)
        envs.append(" ".join(env.get(k, "") for k in ENV_OPTIONS))
    return count_agents(cmds, envs)


class NotStock(UserError):
    """A stock scheme's cluster runs the agent somewhere: its runs would measure something else."""


def check_stock(name: str, census: dict[str, int]) -> None:
    """A stock scheme's run that finds the agent in any JVM measured something else: an error."""
    if census.get("with_agent", 0):
        raise NotStock(f"{name} is meant to be stock Storm, but {census['with_agent']} of its cluster's "
                        f"{census.get('jvms')} JVMs load the migration agent: its numbers would not be stock")
