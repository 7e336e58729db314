"""Submitting your own topology (no cluster): jar checks, the client's command line and conf, a main that
fails, streamparse projects (syntax errors, the shipped jar, the workers' venv), rebalance counts."""

from __future__ import annotations

import json
import subprocess
import threading
import zipfile
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from urllib.parse import unquote_plus

import pytest
from click.testing import CliRunner

from pycontrol.cli.topology_cmd import parse_executor_counts, topology
from pycontrol.errors import UserError
from pycontrol.storm import flux_submit, jar_submit
from pycontrol.workloads import sparse_submit
from pycontrol.storm.rest import StormRest
from pycontrol.workloads.spec import export_spec
from tests.fixtures.own_topologies.build import build_jar

SPARSE = Path(__file__).resolve().parents[1] / "fixtures" / "sparse_project"


@pytest.fixture(scope="module")
def own_jar(tmp_path_factory) -> Path:
    return build_jar(tmp_path_factory.mktemp("own-jar"))


def test_a_missing_jar_a_class_not_in_it_and_a_non_class_name_are_one_line_errors(own_jar, tmp_path):
    with pytest.raises(UserError, match=r"^no such jar: .*nope\.jar$"):
        jar_submit.check_jar(tmp_path / "nope.jar", "a.B")
    with pytest.raises(UserError, match=r"^class byot\.Nope is not in .*own-topologies\.jar$"):
        jar_submit.check_jar(own_jar, "byot.Nope")
    with pytest.raises(UserError, match="must be a Java class name"):
        jar_submit.check_jar(own_jar, "byot/AckedCount")
    (tmp_path / "text.jar").write_text("not a zip")
    with pytest.raises(UserError, match="is not a jar"):
        jar_submit.check_jar(tmp_path / "text.jar", "a.B")
    jar_submit.check_jar(own_jar, "byot.AckedCount")


def test_storm_options_decode_as_storms_command_line_options_do():
    conf = {"topology.environment": {"PATH": "/opt/py/bin:/usr/bin"}, "topology.workers": 3, "x.y": "a,b=c"}
    encoded = jar_submit.storm_options(conf)
    # Utils.readCommandLineOpts: split on commas, URL-decode each, split on the first '=', parse JSON.
    decoded = {}
    for item in encoded.split(","):
        key, _, value = unquote_plus(item).partition("=")
        try:
            decoded[key] = json.loads(value)
        except ValueError:
            decoded[key] = value
    assert decoded == conf


def test_the_workers_python_comes_first_on_their_path_and_must_be_absolute():
    env = jar_submit.python_conf("/opt/venv/bin/python")["topology.environment"]
    assert env["PATH"].split(":")[0] == "/opt/venv/bin"
    assert "/usr/bin" in env["PATH"].split(":")
    with pytest.raises(UserError, match="absolute path"):
        jar_submit.python_conf("python3")


def test_the_client_command_line_is_what_storm_jar_runs(tmp_path):
    argv = jar_submit.client_argv("java", Path("/t/my.jar"), "com.x.Main", ["a", "b"], Path("/c"), Path("/d"),
                                  {"topology.workers": 2})
    assert "-Dstorm.jar=/t/my.jar" in argv
    assert "-Dstorm.conf.file=/c/storm.yaml" in argv
    assert "-Dstorm.options=topology.workers%3D2" in argv
    cp = argv[argv.index("-cp") + 1].split(":")
    assert cp[0] == "/t/my.jar" and "/d/storm/lib-worker/*" in cp and "/c" in cp
    assert argv[-3:] == ["com.x.Main", "a", "b"]


def test_failure_line_is_the_mains_root_exception():
    stderr = ("log line\nException in thread \"main\" java.lang.RuntimeException: wrapper\n\tat x.Main.main\n"
              "Caused by: java.io.IOException: disk full\n\tat y\n")
    assert jar_submit.failure_line("x.Main", stderr, 1) == "x.Main failed: java.io.IOException: disk full"
    assert jar_submit.failure_line("x.Main", "Error: Main method not found in class x.Main\n", 1) \
        == "x.Main: Main method not found in class x.Main"
    assert jar_submit.failure_line("x.Main", "", 3) == "x.Main exited with code 3"


def test_a_main_that_throws_gives_its_message_in_one_line(own_jar, tmp_path):
    (tmp_path / "storm.yaml").write_text("nimbus.seeds: [127.0.0.1]\nnimbus.thrift.port: 1\n")
    with pytest.raises(UserError) as e:
        jar_submit.submit_jar(own_jar, "byot.FailingMain", ["bad", "arg"], tmp_path, "/usr/bin/python3")
    assert str(e.value) == "byot.FailingMain failed: java.lang.IllegalStateException: no topology here: bad arg"


def test_cli_bad_jar_input_exits_non_zero_with_one_line(own_jar, tmp_path):
    r = CliRunner().invoke(topology, ["submit", "--jar", str(own_jar), "--class", "byot.Missing",
                                      "--home", str(tmp_path)])
    assert r.exit_code != 0 and isinstance(r.exception, UserError)
    assert str(r.exception) == f"class byot.Missing is not in {own_jar}"
    r = CliRunner().invoke(topology, ["submit", "--jar", str(own_jar), "--home", str(tmp_path)])
    assert r.exit_code != 0 and "--jar and --class go together" in str(r.exception)


def test_a_sparse_project_with_a_syntax_error_names_file_and_line(tmp_path):
    project = tmp_path / "p"
    (project / "topologies").mkdir(parents=True)
    (project / "src" / "bolts").mkdir(parents=True)
    (project / "topologies" / "t.py").write_text("from streamparse import Topology\n")
    (project / "src" / "bolts" / "b.py").write_text("x = 1\n\ndef broken(:\n    pass\n")
    with pytest.raises(UserError) as e:
        sparse_submit.check_syntax(project)
    assert str(e.value).startswith(f"{project / 'src' / 'bolts' / 'b.py'}:3: syntax error")


def test_a_sparse_topology_is_found_by_name_or_as_the_only_one(tmp_path):
    assert sparse_submit.topology_file(SPARSE, None).name == "numbers.py"
    with pytest.raises(UserError, match="has no topology 'other' \\(topologies: numbers\\)"):
        sparse_submit.topology_file(SPARSE, "other")
    with pytest.raises(UserError, match="not a streamparse project"):
        sparse_submit.topology_file(tmp_path, None)


def test_a_sparse_project_exports_its_src_components_and_ships_src_as_resources(tmp_path):
    cls = sparse_submit.load_topology_class(SPARSE, sparse_submit.topology_file(SPARSE, None))
    spec = export_spec(cls, "numbers")
    commands = {c["id"]: c["constructorArgs"][0] for c in spec["spouts"] + spec["bolts"]}
    assert commands == {"numbers": ["streamparse_run", "spouts.numbers.NumberSpout"],
                        "double": ["streamparse_run", "bolts.arith.DoubleBolt"],
                        "total": ["streamparse_run", "bolts.arith.TotalBolt"]}
    base = tmp_path / "base.jar"
    with zipfile.ZipFile(base, "w") as z:
        z.writestr("io/x/Builder.class", b"\xca\xfe")
        z.writestr("resources/topologies/wordcount/bolts.py", "suite's own")
    with zipfile.ZipFile(sparse_submit.build_jar(base, SPARSE, tmp_path / "out.jar")) as z:
        names = set(z.namelist())
    assert "io/x/Builder.class" in names
    assert {"resources/bolts/arith.py", "resources/spouts/numbers.py"} <= names
    assert not any(n.startswith("resources/topologies/") for n in names)


def test_a_component_defined_in_the_topology_file_is_refused(tmp_path):
    project = tmp_path / "p"
    (project / "topologies").mkdir(parents=True)
    (project / "topologies" / "t.py").write_text(
        "from streamparse import Spout, Topology\n"
        "class S(Spout):\n    outputs = ['x']\n"
        "class T(Topology):\n    s = S.spec(par=1)\n")
    with pytest.raises(UserError, match="component 's' is defined in the topology file"):
        sparse_submit.load_topology_class(project, project / "topologies" / "t.py")


def test_requirements_go_into_a_venv_over_the_base_interpreter_reused_next_time(tmp_path):
    python = sparse_submit.worker_python(SPARSE, tmp_path)
    assert python.startswith(str(tmp_path))
    # The venv has the base's packages (streamparse) and the requirement.
    subprocess.run([python, "-c", "import streamparse, requests"], check=True)
    assert sparse_submit.worker_python(SPARSE, tmp_path) == python
    assert sparse_submit.worker_python(tmp_path, tmp_path / "none") != python  # no requirements: the base


def test_rebalance_executor_counts_are_validated():
    assert parse_executor_counts(["count=4", " split = 2"]) == {"count": 4, "split": 2}
    for bad in ["count", "=3", "count=0", "count=x"]:
        with pytest.raises(UserError, match="bad -e"):
            parse_executor_counts([bad])


class _Rebalance(BaseHTTPRequestHandler):
    seen: list[tuple[str, dict]] = []

    def log_message(self, *a):
        pass

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        _Rebalance.seen.append((self.path, body))
        data = json.dumps({"status": "success"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def test_rebalance_sends_storms_documented_body():
    server = HTTPServer(("127.0.0.1", 0), _Rebalance)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        rest = StormRest(f"http://127.0.0.1:{server.server_port}")
        rest.rebalance_to("wc-1-2", 5, 3, {"count": 4})
        rest.rebalance_to("wc-1-2", 0)
    finally:
        server.shutdown()
    assert _Rebalance.seen == [
        ("/api/v1/topology/wc-1-2/rebalance/5", {"rebalanceOptions": {"numWorkers": 3, "executors": {"count": 4}}}),
        ("/api/v1/topology/wc-1-2/rebalance/0", {"rebalanceOptions": {}})]


FLUX = """name: "f"
components:
  - id: "scheme"
    className: "org.apache.storm.spout.RawScheme"
spouts:
  - id: "words"
    className: "org.apache.storm.testing.TestWordSpout"
    parallelism: ${spout.par}
    constructorArgs: [{ref: "scheme"}]
bolts:
  - id: "count"
    className: "org.apache.storm.testing.TestWordCounter"
streams:
  - from: "words"
    to: "${bolt.id}"
    grouping: {type: SHUFFLE}
"""


def test_a_flux_file_is_checked_after_property_substitution(tmp_path):
    f = tmp_path / "t.yaml"
    f.write_text(FLUX)
    props = tmp_path / "dev.properties"
    props.write_text("# comment\nspout.par = 3\nbolt.id: count\n")
    doc = flux_submit.check_flux(f, flux_submit.read_properties(props))
    assert doc["spouts"][0]["parallelism"] == 3
    with pytest.raises(UserError, match=r"^.*t\.yaml: stream words -> \$\{bolt\.id\}: no spout or bolt"):
        flux_submit.check_flux(f)


def test_a_flux_file_naming_an_unknown_component_or_ref_is_one_line(tmp_path):
    f = tmp_path / "t.yaml"
    f.write_text(FLUX.replace("${bolt.id}", "cuont"))
    with pytest.raises(UserError) as e:
        flux_submit.check_flux(f, {"spout.par": "1"})
    assert str(e.value) == f"{f}: stream words -> cuont: no spout or bolt 'cuont' (spouts and bolts: words, count)"
    f.write_text(FLUX.replace('ref: "scheme"', 'ref: "shceme"'))
    with pytest.raises(UserError, match="ref 'shceme' names no component \\(components: scheme\\)"):
        flux_submit.check_flux(f, {"spout.par": "1", "bolt.id": "count"})
    f.write_text("name: [unclosed\n")
    with pytest.raises(UserError, match=r"t\.yaml:\d+: not YAML"):
        flux_submit.check_flux(f)


def test_the_flux_upload_is_the_users_jar_plus_the_wrappers(tmp_path):
    user, wrappers = tmp_path / "user.jar", tmp_path / "flux-wrappers-2.8.3.jar"
    with zipfile.ZipFile(user, "w") as z:
        z.writestr("com/x/Bolt.class", b"user")
        z.writestr("resources/upper.py", "print()")
        z.writestr("META-INF/MANIFEST.MF", "user")
    with zipfile.ZipFile(wrappers, "w") as z:
        z.writestr("org/apache/storm/flux/wrappers/bolts/FluxShellBolt.class", b"w")
        z.writestr("META-INF/MANIFEST.MF", "wrappers")
    with zipfile.ZipFile(flux_submit.topology_jar(user, wrappers, tmp_path / "out.jar")) as z:
        assert set(z.namelist()) == {"com/x/Bolt.class", "resources/upper.py", "META-INF/MANIFEST.MF",
                                     "org/apache/storm/flux/wrappers/bolts/FluxShellBolt.class"}
        assert z.read("META-INF/MANIFEST.MF") == b"user"


def test_cli_flux_with_an_unknown_component_exits_non_zero_before_looking_for_a_cluster(tmp_path):
    f = tmp_path / "t.yaml"
    f.write_text(FLUX.replace("${bolt.id}", "cuont").replace("${spout.par}", "1"))
    r = CliRunner().invoke(topology, ["submit", "--flux", str(f), "--home", str(tmp_path / "none")])
    assert r.exit_code != 0 and "no spout or bolt 'cuont'" in str(r.exception)


def test_cli_sparse_requirements_for_another_cluster_need_python(tmp_path):
    r = CliRunner().invoke(topology, ["submit", "--sparse", str(SPARSE), "--nimbus", "10.0.0.5:6627",
                                      "--home", str(tmp_path)])
    assert r.exit_code != 0 and "pass --python PATH" in str(r.exception)
