"""The ports one role serves and another scrapes agree, without building a cluster: the roles' variables
are rendered for the netns inventory's hosts (connection local, nothing changed), and Prometheus'
scrape configuration must name every daemon at the address and port its own role makes it listen on.
tests/ops/test_ansible_cluster.py checks the same against a running deployment (opt-in, slow)."""

from __future__ import annotations

import json
import re

import pytest
import yaml

from tests.ops.conftest import ANSIBLE_DIR, OPS_VENV, ops_bin, run

pytestmark = pytest.mark.ops

ROLES = ["prometheus", "pycontrol", "node_exporter", "zookeeper", "storm_common", "storm_plugins", "storm_nimbus",
         "storm_ui", "storm_supervisor"]
SHOWN = ["group_names", "prometheus_config", "pycontrol_service_def", "pycontrol_metrics_service_def", "node_exporter_service_def",
         "zookeeper_service_def", "storm_nimbus_service_def", "storm_ui_service_def", "storm_supervisor_service_def"]


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> dict[str, dict]:
    """host -> {variable: value} as the roles define them for that host."""
    work = tmp_path_factory.mktemp("wiring")
    # The playbook's own group_vars (next to site.yml) first: this play lives elsewhere.
    files = [str(ANSIBLE_DIR / "group_vars" / "all.yml")] + [
        str(ANSIBLE_DIR / "roles" / r / d / "main.yml") for r in ROLES for d in ("defaults", "vars")
        if (ANSIBLE_DIR / "roles" / r / d / "main.yml").exists()]
    play = [{
        "name": "Render the roles' variables", "hosts": "all", "gather_facts": False,
        "vars": {"ansible_connection": "local", "ansible_python_interpreter": "{{ ansible_playbook_python }}",
                 # Facts the roles set while running, given fixed stand-ins here.
                 "zookeeper_home": "/opt/zookeeper/current", "storm_common_home": "/opt/storm/current",
                 "storm_plugins_jar_stats": {"results": []}},
        "tasks": [
            {"name": "Load the roles' variables", "ansible.builtin.include_vars": "{{ item }}", "loop": files},
            {"name": "Write them out", "delegate_to": "localhost",
             "ansible.builtin.copy": {"content": "{{ {" + ", ".join(f"'{v}': {v}" for v in SHOWN) + "} | to_json }}",
                                      "dest": str(work) + "/{{ inventory_hostname }}.json", "mode": "0644"}},
        ],
    }]
    (work / "render.yml").write_text(yaml.safe_dump(play, sort_keys=False))
    env = {"PATH": f"{OPS_VENV / 'bin'}:/usr/bin:/bin", "HOME": str(work), "ANSIBLE_LOCAL_TEMP": str(work / "tmp"),
           "NONSTOP_NETNS_DIR": str(work), "NONSTOP_WHEELHOUSE": str(work), "ANSIBLE_NOCOLOR": "1"}
    # include_vars of the roles' defaults outranks the inventory's group_vars, so the netns inventory's one
    # override that matters here is given again as an extra var (which outranks both).
    p = run([ops_bin("ansible-playbook"), "-i", "inventories/netns", "-e", "storm_common_migration_agent_enabled=true",
             work / "render.yml"], cwd=ANSIBLE_DIR, env=env, timeout_s=300)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    return {f.stem: json.loads(f.read_text()) for f in work.glob("*.json")}


DAEMON_OF_GROUP = {"zookeeper": "zookeeper", "nimbus": "storm_nimbus", "ui": "storm_ui",
                   "supervisors": "storm_supervisor"}


def listen_address(command: list[str], option: str) -> str:
    """host:port given to a command-line option, as --opt=value, --opt value, or a javaagent's =host:port:."""
    joined = " ".join(map(str, command))
    m = re.search(rf"{re.escape(option)}[= ](\S+)", joined)
    assert m, f"{option} not in {joined}"
    return m.group(1)


def scrape_targets(prometheus_config: dict) -> dict[str, set[str]]:
    return {job["job_name"]: {t for sc in job["static_configs"] for t in sc["targets"]}
            for job in prometheus_config["scrape_configs"]}


def test_prometheus_scrapes_each_daemon_where_its_role_makes_it_listen(rendered):
    assert sorted(rendered) == ["storm1", "storm2", "storm3"]
    (monitoring,) = [h for h, v in rendered.items() if "monitoring" in v["group_names"]]
    targets = scrape_targets(rendered[monitoring]["prometheus_config"])
    node = {listen_address(v["node_exporter_service_def"]["command"], "--web.listen-address") for v in rendered.values()}
    assert targets["node"] == node and len(node) == 3

    (controller_host,) = [h for h, v in rendered.items() if "controller" in v["group_names"]]
    ctl = rendered[controller_host]["pycontrol_service_def"]["command"]
    assert targets["controller"] == {f"{listen_address(ctl, '--metrics-host')}:{listen_address(ctl, '--metrics-port')}"}
    exp = rendered[controller_host]["pycontrol_metrics_service_def"]["command"]
    assert targets["pycontrol"] == {f"{listen_address(exp, '--host')}:{listen_address(exp, '--port')}"}

    # Each daemon's JMX exporter agent, on the hosts of the group that runs it.
    agents = set()
    for v in rendered.values():
        for group, daemon in DAEMON_OF_GROUP.items():
            if group in v["group_names"]:
                agent = listen_address(v[f"{daemon}_service_def"]["command"], "jmx_prometheus_javaagent.jar")
                agents.add(agent.rsplit(":", 1)[0])      # host:port:config -> host:port
    assert targets["jvm"] == agents and len(agents) == 3 + 1 + 1 + 2


def test_the_controller_finds_its_planners_and_java(rendered):
    env = rendered["storm1"]["pycontrol_service_def"]["environment"]
    assert env["PYCONTROL_DIST"] == "/opt/pycontrol-dist"
    assert env["JAVA_HOME"].startswith("/usr/lib/jvm/java-17-openjdk-")


def test_nimbus_and_the_supervisors_load_the_migration_agent_in_their_roles(rendered):
    """With the agent on (the netns inventory), each daemon JVM gets it with its own role, as an option
    (before the main class): a supervisor adopts workers across its restarts, Nimbus runs a round as soon
    as a plan is written."""
    seen = set()
    for v in rendered.values():
        for group, daemon, role in (("nimbus", "storm_nimbus", "nimbus"), ("supervisors", "storm_supervisor", "supervisor")):
            if group not in v["group_names"]:
                continue
            command = v[f"{daemon}_service_def"]["command"]
            (flag,) = [a for a in command if a.startswith("-javaagent:") and "nonstop-migration.jar" in a]
            assert flag.endswith(f"={role}"), flag
            assert command[-1].startswith("org.apache.storm.daemon."), command    # the flag came before it
            seen.add(role)
    assert seen == {"nimbus", "supervisor"}
