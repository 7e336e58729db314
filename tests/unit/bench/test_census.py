"""The agent census: which JVMs of a cluster load the migration agent, and a stock run that finds one."""

import pytest

from pycontrol.bench.migration.census import check_stock, count_agents
from pycontrol.errors import UserError

AGENT = "-javaagent:/h/storm/extlib/nonstop-migration.jar=worker"


def test_counts_java_processes_and_those_loading_the_migration_agent():
    cmds = [["/usr/lib/jvm/bin/java", "-Xmx1g", AGENT, "org.apache.storm.daemon.worker.Worker"],
            ["java", "-javaagent:/opt/jolokia.jar", "org.apache.storm.daemon.nimbus.Nimbus"],   # another agent
            ["java", "org.apache.zookeeper.server.quorum.QuorumPeerMain"],
            ["/bin/sh", "-c", f"java {AGENT}"],                                                # not a JVM
            []]
    assert count_agents(cmds) == {"jvms": 3, "with_agent": 1}


def test_a_stock_run_with_an_agent_jvm_is_an_error_and_without_one_passes():
    check_stock("worker-restart", {"jvms": 7, "with_agent": 0})
    with pytest.raises(UserError, match="worker-restart is meant to be stock Storm, but 2 of its cluster's 7 JVMs"):
        check_stock("worker-restart", {"jvms": 7, "with_agent": 2})


def test_an_agent_loaded_through_the_environment_counts_too():
    cmds = [["/usr/bin/java", "-cp", "x", "org.apache.storm.daemon.worker.Worker"],
            ["/usr/bin/java", "-cp", "x", "org.apache.storm.daemon.nimbus.Nimbus"]]
    envs = ["-javaagent:/h/storm/extlib/nonstop-migration.jar=worker -Xss1m", ""]
    assert count_agents(cmds, envs) == {"jvms": 2, "with_agent": 1}
    assert count_agents(cmds, ["-javaagent:/other/agent.jar", ""]) == {"jvms": 2, "with_agent": 0}
