"""The UI REST server's placement page /nonstop/ on the real cluster, rendered by headless Chromium:
it lists a topology's executors under the workers Nimbus reports, shows an executor in its new
worker after a live move with the move in its table, and keeps markup in a component's name as text."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

import requests
import yaml

from pycontrol.cluster import daemons
from pycontrol.cluster.java import find_java
from pycontrol.migration.migrate import migrate
from pycontrol.storm import flux_submit, placement
from tests.conftest import submitted_topology, wait_for

pytestmark = pytest.mark.cluster

NAME = "it-placement-page"
# Storm accepts any component id (topology names are narrower: they become blob keys), so a user's
# component can carry markup; the page must show it as text.
MARKUP = "<b>bold-words"
# Storm's own test spout and counter: no jar to build.
FLUX = f"""
name: "{NAME}"
config:
  topology.workers: 2
spouts:
  - id: "{MARKUP}"
    className: "org.apache.storm.testing.TestWordSpout"
    parallelism: 1
bolts:
  - id: "count"
    className: "org.apache.storm.testing.TestWordCounter"
    parallelism: 2
streams:
  - from: "{MARKUP}"
    to: "count"
    grouping:
      type: FIELDS
      args: ["word"]
"""
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


class PageDom(HTMLParser):
    """What the rendered page shows: executors (with their worker), move rows, bold elements."""

    def __init__(self, html: str):
        super().__init__()
        self.executors: list[dict] = []
        self.moves: list[dict] = []
        self.bold = 0
        self.error_shown = False
        self.error_text = ""
        self._in_error = False
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag == "li" and "executor" in classes:
            self.executors.append(a)
        elif tag == "tr" and "move" in classes:
            self.moves.append(a)
        elif tag == "b":
            self.bold += 1
        elif a.get("id") == "error" and "hidden" not in a:
            self.error_shown = self._in_error = True

    def handle_endtag(self, tag):
        self._in_error = False

    def handle_data(self, data):
        if self._in_error:
            self.error_text += data

    def slots(self, topology: str) -> dict[str, str]:
        """executor -> "host:port" of the worker the page draws it in."""
        return {e["data-executor"]: e["data-slot"] for e in self.executors if e.get("data-topology") == topology}


def chromium(*args: str, profile: Path) -> subprocess.CompletedProcess:
    # Virtual time runs the page's first fetch and render without waiting in real time.
    return subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
                           "--virtual-time-budget=3000", *args], capture_output=True, text=True, timeout=120)


def render(url: str, profile: Path) -> PageDom:
    done = chromium("--dump-dom", url, profile=profile)
    assert done.returncode == 0, done.stderr[-2000:]
    return PageDom(done.stdout)


@pytest.fixture(scope="module")
def counting(cluster, tmp_path_factory):
    flux = tmp_path_factory.mktemp("placement-page") / "counting.yaml"
    flux.write_text(FLUX)
    flux_submit.submit_flux(flux, cluster.conf_dir)
    rest = cluster.rest
    with submitted_topology(cluster, NAME) as (topo_id, client):
        wait_for("executors placed on both nodes",
                 lambda: len(placement.by_host(placement.placement(rest, topo_id))) == 2, 240)
        yield topo_id, client


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (./nonstop setup installs it)")
def test_the_page_draws_nimbus_placement_and_follows_a_live_move(cluster, counting, tmp_path):
    topo_id, client = counting
    rest = cluster.rest
    url = f"{cluster.spec.ui_url}/nonstop/"
    profile = tmp_path / "chromium-profile"

    # Every executor Nimbus reports is drawn in the worker Nimbus puts it in.
    nimbus = {p.executor.ui: f"{p.host}:{p.port}" for p in placement.placement(rest, topo_id)}
    dom = render(url, profile)
    assert not dom.error_shown
    assert {e: s for e, s in dom.slots(NAME).items() if e in nimbus} == nimbus
    # The component's markup is text: it is on the page, and no <b> element is.
    assert MARKUP in {e["data-component"] for e in dom.executors}
    assert dom.bold == 0

    # Move one counter executor live to the topology's worker on the other node.
    places = placement.placement(rest, topo_id)
    mover = next(p for p in places if p.component == "count")
    source = f"{mover.host}:{mover.port}"
    target = next(s for s in sorted(set(nimbus.values())) if s.split(":")[0] != mover.host)
    host, port = target.rsplit(":", 1)
    moved = migrate(client, rest, NAME, mover.executor, (host, int(port)), wait=True, timeout_s=90)
    assert moved.decision.status == "applied", moved.decision

    def shows_the_move():
        d = render(url, profile)
        row = [m for m in d.moves if m.get("data-topology") == NAME and m.get("data-executor") == mover.executor.ui
               and m.get("data-from") == source and m.get("data-to") == target]
        marked = [e for e in d.executors if e.get("data-topology") == NAME and e["data-executor"] == mover.executor.ui
                  and "moved" in e.get("class", "").split()]
        return d if d.slots(NAME).get(mover.executor.ui) == target and row and marked else None

    dom = wait_for("the page shows the executor in its new worker and the move", shows_the_move, 60, poll_s=0.5)
    after = {p.executor.ui: f"{p.host}:{p.port}" for p in placement.placement(rest, topo_id)}
    assert after[mover.executor.ui] == target
    assert {e: s for e, s in dom.slots(NAME).items() if e in after} == after
    assert not dom.error_shown

    shot = tmp_path / "placement.png"
    done = chromium(f"--screenshot={shot}", "--window-size=1400,1000", url, profile=profile)
    assert done.returncode == 0, done.stderr[-2000:]
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (./nonstop setup installs it)")
def test_the_page_shows_a_failed_refresh(cluster, tmp_path):
    """A second UI REST server, from the cluster's own command, whose Nimbus and ZooKeeper are away."""
    conf = yaml.safe_load((cluster.conf_dir / "storm.yaml").read_text())
    conf.update({"nimbus.seeds": ["127.0.0.1"], "nimbus.thrift.port": _closed_port(), "ui.port": _closed_port(),
                 "storm.zookeeper.port": _closed_port()})
    (tmp_path / "storm.yaml").write_text(yaml.safe_dump(conf))
    cmd = daemons.ui(cluster.spec, cluster.layout, find_java())
    control, logs = str(cluster.conf_dir), str(cluster.layout.logs)
    argv = [a.replace(control, str(tmp_path)).replace(logs, str(tmp_path)) for a in cmd.argv]
    url = f"http://127.0.0.1:{conf['ui.port']}/nonstop/"
    server = subprocess.Popen(argv, env={**os.environ, "STORM_CONF_DIR": str(tmp_path)},
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def serving():
            try:
                return requests.get(url, timeout=5).status_code == 200
            except requests.RequestException:
                return False
        wait_for("the second UI REST server serving", serving, 120, poll_s=0.5)
        dom = render(url, tmp_path / "chromium-profile")
        assert dom.error_shown
        assert dom.error_text.startswith("Refresh failed at ") and "HTTP 503" in dom.error_text, dom.error_text
    finally:
        server.terminate()
        server.wait(timeout=60)
