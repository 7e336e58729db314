"""The REST client against a small real HTTP server on loopback (a fake Storm UI)."""

import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from pycontrol.storm.rest import RestError, StormRest


class _Handler(BaseHTTPRequestHandler):
    posts: list[str] = []

    def log_message(self, *a):
        pass

    def do_POST(self):
        _Handler.posts.append(self.path)
        if "/rebalance/" in self.path:
            self._send(200, {"topologyOperation": "rebalance", "topologyId": self.path.split("/")[4], "status": "success"})
        else:
            self._send(404, {"errorMessage": "no such operation"})

    def _send(self, code, body):
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path.startswith("/api/v1/topology/summary"):
            self._send(200, {"topologies": [{"id": "wc-1-2", "name": "wc", "status": "ACTIVE"}]})
        elif self.path.startswith("/api/v1/topology/nope"):
            self._send(404, {"error": "Not Found", "errorMessage": "topology nope not found"})
        else:
            self._send(500, {"error": "boom"})


@pytest.fixture
def ui():
    srv = HTTPServer(("127.0.0.1", 0), _Handler)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()


def test_topology_id_by_name(ui):
    rest = StormRest(ui)
    assert rest.topology_id("wc") == "wc-1-2"
    assert rest.topology_id("other") is None


def test_error_replies_carry_storms_message(ui):
    with pytest.raises(RestError, match="HTTP 404: topology nope not found"):
        StormRest(ui).topology("nope")


def test_unreachable_ui_is_a_clear_error():
    with pytest.raises(RestError, match="unreachable"):
        StormRest("http://127.0.0.1:9", timeout_s=1).topologies()


def test_rebalance_posts_the_wait_for_that_topology(ui):
    _Handler.posts.clear()
    reply = StormRest(ui).rebalance("wc-1-2", 15)
    assert _Handler.posts == ["/api/v1/topology/wc-1-2/rebalance/15"]
    assert reply["topologyOperation"] == "rebalance" and reply["topologyId"] == "wc-1-2"
