"""Which Storm release a cluster runs: the version is validated, each release's parts come from its own
build directory, and a version that is not built is refused with one clear line (no cluster needed)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pycontrol.paths import REPO_ROOT
from pycontrol.cluster import daemons, storm_home, storm_versions
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.spec import make_spec, spec_from_dict
from pycontrol.errors import UserError


def _build(dist: Path, *versions: str) -> None:
    """A build/dist holding one jar in every part of these versions."""
    for v in versions:
        p = storm_versions.parts(dist, v)
        for d in (p.storm / "lib", p.storm / "lib-worker", p.storm / "lib-webapp", p.zookeeper):
            d.mkdir(parents=True, exist_ok=True)
            (d / f"part-{v}.jar").write_text("")


def test_the_default_is_2_8_3_and_the_spec_keeps_the_version_through_the_state_file(tmp_path):
    assert make_spec(tmp_path).storm_version == "2.8.3"
    spec = make_spec(tmp_path, storm_version="2.6.4")
    assert spec_from_dict(spec.to_dict()) == spec
    old = spec.to_dict()
    del old["storm_version"]        # a state file written before the version switch
    assert spec_from_dict(old).storm_version == "2.8.3"


def test_an_unknown_version_is_refused_with_the_known_ones(tmp_path):
    with pytest.raises(UserError, match=r"--storm-version must be one of 2\.8\.3, 2\.7\.1, 2\.6\.4, got '2\.5\.0'"):
        make_spec(tmp_path, storm_version="2.5.0")


def test_each_release_has_its_own_build_directories():
    dist = Path("/dist")
    assert storm_versions.parts(dist, "2.8.3") == storm_versions.StormParts(dist / "storm", dist / "zookeeper")
    assert storm_versions.parts(dist, "2.7.1") == storm_versions.StormParts(dist / "storm-2.7.1",
                                                                            dist / "zookeeper-for-storm-2.7.1")


def test_only_fully_built_versions_count_as_built(tmp_path):
    _build(tmp_path, "2.8.3", "2.6.4")
    _build(tmp_path / "half", "2.7.1")
    (tmp_path / "half" / "storm-2.7.1").rename(tmp_path / "storm-2.7.1")   # its ZooKeeper is missing
    assert storm_versions.built_versions(tmp_path) == ["2.8.3", "2.6.4"]
    assert storm_versions.require_parts(tmp_path, "2.6.4").storm == tmp_path / "storm-2.6.4"
    with pytest.raises(UserError, match=r"Storm 2\.7\.1 is not built under .* \(built: 2\.8\.3, 2\.6\.4\): build it "
                                        r"with `mvn -q -DskipTests package`"):
        storm_versions.require_parts(tmp_path, "2.7.1")


def test_storm_home_links_the_releases_own_libs(tmp_path):
    dist = tmp_path / "dist"
    _build(dist, "2.8.3", "2.7.1")
    spec = make_spec(tmp_path / "home", storm_version="2.7.1", migration=False)
    layout = Layout(spec.home)
    storm_home.assemble(spec, layout, dist)
    h = layout.storm_home
    assert (h / "lib").resolve() == (dist / "storm-2.7.1" / "lib").resolve()
    assert (h / "lib-worker").resolve() == (dist / "storm-2.7.1" / "lib-worker").resolve()
    assert (h / "lib-webapp").resolve() == (dist / "storm-2.7.1" / "lib-webapp").resolve()


@pytest.mark.parametrize("version, zk_dir", [("2.8.3", "zookeeper"), ("2.6.4", "zookeeper-for-storm-2.6.4")])
def test_zookeeper_runs_from_the_releases_own_server_jars(version, zk_dir):
    spec = make_spec(Path("/tmp/home"), storm_version=version)
    zk = daemons.all_commands(spec, Layout(spec.home), "java", Path("/dist"))[0]
    assert zk.role == "zookeeper"
    assert zk.argv[zk.argv.index("-cp") + 1] == f"/dist/{zk_dir}/*"


def _cluster_up(*args: str, dist: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, **({"PYCONTROL_DIST": str(dist)} if dist else {})}
    return subprocess.run([sys.executable, "-m", "pycontrol", "cluster", "up", *args], capture_output=True,
                          text=True, cwd=REPO_ROOT, env=env, timeout=60)


def test_cluster_up_with_an_unknown_version_prints_one_line_and_fails(tmp_path):
    r = _cluster_up("--home", str(tmp_path), "--storm-version", "3.0.0")
    assert r.returncode != 0 and r.stdout == ""
    assert r.stderr.splitlines() == ["error: --storm-version must be one of 2.8.3, 2.7.1, 2.6.4, got '3.0.0'"]


def test_cluster_up_with_an_unbuilt_version_prints_one_line_and_fails(tmp_path):
    dist = tmp_path / "dist"
    _build(dist, "2.8.3")
    r = _cluster_up("--home", str(tmp_path / "home"), "--storm-version", "2.7.1", "--port-base", "28900", dist=dist)
    assert r.returncode != 0 and r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: Storm 2.7.1 is not built under"), lines
