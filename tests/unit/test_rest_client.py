"""The REST client against a small real HTTP server on loopback (a fake Storm UI)."""

import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from pycontrol.errors import UserError
from pycontrol.storm.rest import RestAccessDenied, RestError, StormRest, executor_id
from pycontrol.wire.executor import ExecutorId

TOKEN = "unit-test-token-0123456789"


class _Handler(BaseHTTPRequestHandler):
    posts: list[str] = []
    authorizations: list[str | None] = []

    def log_message(self, *a):
        pass

    def do_POST(self):
        _Handler.posts.append(self.path)
        auth = self.headers.get("Authorization")
        _Handler.authorizations.append(auth)
        # As the suite's UI REST server: a missing token is 401, a wrong one 403.
        if auth is None:
            self._send(401, {"error": "401 Unauthorized",
                             "errorMessage": "state-changing requests need the header 'Authorization: Bearer <token>'"})
        elif auth != f"Bearer {TOKEN}":
            self._send(403, {"error": "403 Forbidden", "errorMessage": "the bearer token is not this server's"})
        elif "/kill/" in self.path:
            self._send(200, {"topologyOperation": "kill", "topologyId": self.path.split("/")[4], "status": "success"})
        elif "/rebalance/" in self.path:
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
        _Handler.authorizations.append(self.headers.get("Authorization"))
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


@pytest.fixture(autouse=True)
def _fresh_records():
    _Handler.posts.clear()
    _Handler.authorizations.clear()


def test_rebalance_posts_the_wait_for_that_topology(ui):
    reply = StormRest(ui, token=TOKEN).rebalance("wc-1-2", 15)
    assert _Handler.posts == ["/api/v1/topology/wc-1-2/rebalance/15"]
    assert reply["topologyOperation"] == "rebalance" and reply["topologyId"] == "wc-1-2"


def test_the_token_goes_with_state_changing_requests_only(ui):
    rest = StormRest(ui, token=TOKEN)
    assert rest.topology_id("wc") == "wc-1-2"
    assert rest.kill("wc-1-2", 0)["status"] == "success"
    assert _Handler.authorizations == [None, f"Bearer {TOKEN}"]


def test_a_kill_without_the_token_is_one_clear_user_error(ui):
    with pytest.raises(RestAccessDenied) as e:
        StormRest(ui).kill("wc-1-2", 0)
    assert isinstance(e.value, UserError)
    msg = str(e.value)
    assert "\n" not in msg
    assert "HTTP 401" in msg and "Authorization: Bearer" in msg and "this client has no nonstop.ui.token" in msg


def test_a_wrong_token_is_refused_with_the_servers_reason(ui):
    with pytest.raises(RestAccessDenied, match="HTTP 403, the UI REST server refused: the bearer token is not") as e:
        StormRest(ui, token="wrong-token-0123456789").rebalance("wc-1-2", 0)
    assert "has no nonstop.ui.token" not in str(e.value)


def test_executors_of_the_rest_api_are_read_in_the_uis_spelling_only():
    assert executor_id({"id": "[3-4]", "host": "h"}) == ExecutorId(3, 4)
    assert executor_id({"id": "[-1--1]"}).system
    for bad in ({"id": "[3,4]"}, {"id": "[0-0]"}, {"id": None}, {}):
        with pytest.raises(RestError, match="without a \\[start-end\\] id"):
            executor_id(bad)
