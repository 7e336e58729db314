"""The ports one role serves and another scrapes agree, without building a cluster: the roles' variables
are rendered for the netns inventory's hosts (connection local, nothing changed), and Prometheus'
scrape configuration must name every daemon at the address and port its own role makes it listen on.
tests/ops/test_ansible_cluster.py checks the same against a running deployment (slow)."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest
import yaml

from tests.ops.conftest import ANSIBLE_DIR, OPS_VENV, ops_bin, run

pytestmark = pytest.mark.ops

ROLES = ["prometheus", "pycontrol", "node_exporter", "zookeeper", "storm_common", "storm_plugins", "storm_nimbus",
         "storm_ui", "storm_supervisor", "firewall"]
SHOWN = ["group_names", "prometheus_config", "pycontrol_service_def", "pycontrol_metrics_service_def", "node_exporter_service_def",
         "zookeeper_service_def", "storm_nimbus_service_def", "storm_ui_service_def", "storm_supervisor_service_def",
         "storm_common_conf", "zookeeper_conf", "pycontrol_secret_environment", "firewall_ports", "firewall_nft"]
FIREWALL_TEMPLATE = ANSIBLE_DIR / "roles" / "firewall" / "templates" / "firewall.nft.j2"


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
                 "storm_plugins_jar_stats": {"results": []},
                 "firewall_nft": "{{ lookup('ansible.builtin.template', '%s') }}" % FIREWALL_TEMPLATE},
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
    # ZooKeeper auth is switched on here (it is off by default, see group_vars/all.yml) to check what it renders.
    p = run([ops_bin("ansible-playbook"), "-i", "inventories/netns", "-e", "storm_common_migration_agent_enabled=true",
             "-e", "nonstop_zookeeper_auth_enabled=true", work / "render.yml"], cwd=ANSIBLE_DIR, env=env, timeout_s=300)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    return {f.stem: json.loads(f.read_text()) for f in work.glob("*.json")}


def render_env(work) -> dict[str, str]:
    return {"PATH": f"{OPS_VENV / 'bin'}:/usr/bin:/bin", "HOME": str(work), "ANSIBLE_LOCAL_TEMP": str(work / "tmp"),
            "NONSTOP_NETNS_DIR": str(work), "NONSTOP_WHEELHOUSE": str(work), "ANSIBLE_NOCOLOR": "1"}


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


def zookeeper_digest_id(payload: str) -> str:
    """ZooKeeper's DigestAuthenticationProvider: <user>:base64(sha1(<user>:<password>))."""
    return payload.split(":", 1)[0] + ":" + base64.b64encode(hashlib.sha1(payload.encode()).digest()).decode()


def test_every_storm_host_and_pycontrol_get_the_same_generated_secrets_and_a_loopback_ui(rendered):
    storm = {h: v["storm_common_conf"] for h, v in rendered.items()}
    payloads = {c["storm.zookeeper.auth.payload"] for c in storm.values()}
    tokens = {c["nonstop.ui.token"] for c in storm.values()}
    assert len(payloads) == 1 and len(tokens) == 1, "every host must share one secret of each kind"
    (payload,), (token,) = payloads, tokens
    user, password = payload.split(":", 1)
    assert user == "nonstop" and len(password) == 32 and password.isalnum()
    assert len(token) == 43 and token.isalnum() and token != password
    for conf in storm.values():
        assert conf["storm.zookeeper.auth.scheme"] == "digest"
        assert conf["storm.zookeeper.superACL"] == "digest:" + zookeeper_digest_id(payload)
        # Workers authenticate as the cluster too (Storm's exists() on /storm needs READ on ZooKeeper 3.8).
        assert conf["storm.zookeeper.topology.auth.scheme"] == "digest"
        assert conf["storm.zookeeper.topology.auth.payload"] == payload
        assert conf["ui.host"] == "127.0.0.1"
    # pycontrol's services read them from a 0600 file their launcher sources, never from their command line.
    assert rendered["storm1"]["pycontrol_secret_environment"] == {"PYCONTROL_ZK_AUTH": payload, "NONSTOP_UI_TOKEN": token}
    for service in ("pycontrol_service_def", "pycontrol_metrics_service_def"):
        definition = rendered["storm1"][service]
        assert definition["environment_file"] == "/etc/pycontrol/secrets.env"
        assert payload not in json.dumps(definition) and token not in json.dumps(definition)
    # The controller, on the UI host, reaches the UI over loopback.
    ui = listen_address(rendered["storm1"]["pycontrol_service_def"]["command"], "--ui")
    assert ui == "http://127.0.0.1:8080"


def test_zookeeper_answers_only_the_health_check_word_and_caps_connections_per_client(rendered):
    for v in rendered.values():
        conf = v["zookeeper_conf"]
        assert conf["4lw.commands.whitelist"] == "srvr"
        assert 0 < int(conf["maxClientCnxns"]) <= 100
        assert conf["clientPortAddress"] != "0.0.0.0" and conf["admin.enableServer"] == "false"


def test_the_firewall_fences_every_port_a_role_listens_on_for_the_members_only(rendered):
    addresses = sorted(listen_address(v["node_exporter_service_def"]["command"], "--web.listen-address").split(":")[0]
                       for v in rendered.values())
    for host, v in rendered.items():
        ports = set(v["firewall_ports"])
        zk = v["zookeeper_conf"]
        listened = {int(zk["clientPort"]), 6627, 6628, 8080, 9090, 9100, 9465, 9466, 7070, 7071, 7072, 7073,
                    *v["storm_common_conf"]["supervisor.slots.ports"]}
        listened |= {int(p) for key, value in zk.items() if key.startswith("server.") for p in value.split(":")[1:]}
        assert listened <= ports, f"{host}: not fenced: {sorted(listened - ports)}"
        nft = v["firewall_nft"]
        (elements,) = re.findall(r"set sources_v4 \{[^}]*elements = \{ ([^}]*) \}", nft)
        assert sorted(elements.split(", ")) == addresses
        assert "sources_v6" not in nft
        assert re.search(r"tcp dport @cluster_ports counter drop", nft)


def test_the_rendered_ruleset_is_valid_nftables(rendered, tmp_path):
    nft = shutil.which("nft") or "/usr/sbin/nft"
    if not Path(nft).exists():
        pytest.skip("nft not installed: `./nonstop setup` installs nftables")
    ruleset = tmp_path / "firewall.nft"
    ruleset.write_text(rendered["storm1"]["firewall_nft"])
    p = run([nft, "-c", "-f", ruleset])
    if p.returncode != 0 and "Operation not permitted" in p.stderr:
        pytest.skip("nft -c needs CAP_NET_ADMIN")
    assert p.returncode == 0, p.stderr


@pytest.mark.parametrize("token", ["", "short"])
def test_a_ui_off_loopback_without_a_real_token_fails_the_play_with_a_reason(tmp_path, token):
    play = [{"name": "Checks", "hosts": "storm1", "gather_facts": False,
             "vars": {"ansible_connection": "local", "ansible_python_interpreter": "{{ ansible_playbook_python }}"},
             "tasks": [{"name": "Load the cluster's variables",
                        "ansible.builtin.include_vars": str(ANSIBLE_DIR / "group_vars" / "all.yml")},
                       {"name": "Check", "ansible.builtin.include_tasks":
                        str(ANSIBLE_DIR / "roles" / "storm_common" / "tasks" / "checks.yml")}]}]
    (tmp_path / "checks.yml").write_text(yaml.safe_dump(play, sort_keys=False))

    def check(*extra: str):
        return run([ops_bin("ansible-playbook"), "-i", "inventories/netns", *extra, tmp_path / "checks.yml"],
                   cwd=ANSIBLE_DIR, env=render_env(tmp_path), timeout_s=300)

    p = check("-e", "nonstop_ui_bind_address=10.232.0.11", "-e", json.dumps({"nonstop_ui_token": token}))
    assert p.returncode != 0
    assert "not loopback" in p.stdout and "nonstop_ui_token" in p.stdout, p.stdout[-2000:]
    assert check("-e", "nonstop_ui_bind_address=10.232.0.11").returncode == 0     # the generated token
    assert check().returncode == 0                                                   # loopback
