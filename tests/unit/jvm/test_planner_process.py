"""The long-lived planner process: its client with a tiny stand-in process (replies, restarts, timeouts,
giving up), and the real PlanServer from build/dist (plans, refuses garbage and keeps serving, is
started again after it was killed)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from pycontrol import paths
from pycontrol.jvm import plancli
from pycontrol.jvm.command import JvmError
from pycontrol.jvm.planner_process import PlannerProcess, server_command, start_server

EXAMPLE = paths.REPO_ROOT / "storm-plugins" / "scheduling" / "examples" / "wordcount.json"
JAR = paths.dist_dir() / "extlib" / "nonstop-scheduling.jar"
needs_jar = pytest.mark.skipif(not JAR.is_file(), reason="build the scheduling plugin first")

# A stand-in server: answers each request line with exit 0, then behaves as its mode says.
FAKE = r"""
import json, sys, time
mode = sys.argv[1]
if mode == "crash":
    sys.stderr.write("Error: could not find or load main class\n"); sys.exit(1)
for line in sys.stdin:
    if mode == "hang":
        time.sleep(60)
    req = json.loads(line)
    print(json.dumps({"id": req["id"], "exit": 0, "result": {"ok": True, "scheduler": req["scheduler"]},
                      "error": None}), flush=True)
"""


def fake(tmp_path, mode):
    script = tmp_path / "fake_server.py"
    script.write_text(FAKE)
    return lambda: subprocess.Popen([sys.executable, str(script), mode], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)


@pytest.fixture
def clients():
    made = []
    yield lambda *a, **k: made.append(PlannerProcess(*a, **k)) or made[-1]
    for c in made:
        c.close()


def test_one_process_serves_every_request(tmp_path, clients):
    client = clients(fake(tmp_path, "serve"))
    replies = [client.plan("otd", {"n": i}, 10) for i in range(3)]
    assert [r.exit for r in replies] == [0, 0, 0] and replies[0].result == {"ok": True, "scheduler": "otd"}
    assert client.starts == 1


def test_a_process_that_died_is_started_again_for_the_next_request(tmp_path, clients):
    client = clients(fake(tmp_path, "serve"))
    for _ in range(3):
        assert client.plan("otd", {}, 10).exit == 0
        client._running.proc.kill()
        client._running.proc.wait()
    assert client.starts == 3


def test_a_request_past_its_timeout_kills_the_process_and_the_next_one_starts_anew(tmp_path, clients):
    client = clients(fake(tmp_path, "hang"))
    with pytest.raises(JvmError, match="the planner took longer than 0.5 s and was stopped"):
        client.plan("otd", {}, 0.5)
    first = client._running.proc
    assert first.poll() is not None   # killed, not left behind
    with pytest.raises(JvmError):
        client.plan("otd", {}, 0.5)
    assert client.starts == 2 and client._running.proc is not first


def test_restarts_are_bounded_then_every_request_fails_at_once_with_the_reason(tmp_path, clients):
    client = clients(fake(tmp_path, "crash"), max_restarts=2)
    for _ in range(3):   # the first start and two restarts
        with pytest.raises(JvmError, match="died"):
            client.plan("otd", {}, 10)
    for _ in range(2):
        with pytest.raises(JvmError, match=r"failed 3 times in a row .*could not find or load main class"):
            client.plan("otd", {}, 10)
    assert client.starts == 3


@needs_jar
def test_the_real_server_refuses_garbage_and_oversize_lines_and_keeps_serving():
    proc = start_server(server_command(max_line_bytes=64 * 1024))
    try:
        example = json.loads(EXAMPLE.read_text())
        lines = [b"garbage\n", b"{" + b" " * 70000 + b"}\n",
                 json.dumps({"id": 5, "scheduler": "aniello-online", "input": example}).encode() + b"\n"]
        out, _ = proc.communicate(b"".join(lines), timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    replies = [json.loads(x) for x in out.splitlines()]
    assert [r["exit"] for r in replies] == [plancli.BAD_INPUT, plancli.BAD_INPUT, plancli.OK]
    assert replies[0]["error"].startswith("request is not JSON") and "longer than 65536 bytes" in replies[1]["error"]
    assert replies[2]["id"] == 5 and replies[2]["result"]["ok"] and replies[2]["result"]["scheduler"] == "aniello-online"
    assert proc.returncode == 0   # stdin ended: it exits by itself


@needs_jar
def test_the_client_plans_with_the_real_server_and_starts_it_again_after_it_was_killed(clients):
    client = clients()
    example = json.loads(EXAMPLE.read_text())
    planned = client.plan("dsm", example, 120)
    assert planned.exit == plancli.OK and planned.result["ok"] and planned.error is None
    refused = client.plan("dsm", {"cluster": {}}, 120)
    assert refused.exit == plancli.BAD_INPUT and refused.error.startswith("input: ")
    unknown = client.plan("no-such", example, 120)
    assert unknown.exit == plancli.BAD_INPUT and "unknown scheduler 'no-such'" in unknown.error
    assert client.starts == 1
    client._running.proc.kill()
    client._running.proc.wait()
    again = client.plan("dsm", example, 120)
    assert again.exit == plancli.OK and again.result == planned.result | {"planning_ms": again.result["planning_ms"]}
    assert client.starts == 2


def test_the_long_lived_planner_runs_with_a_bounded_heap():
    argv = server_command().argv("java")
    assert any(a.startswith("-Xmx") for a in argv[:argv.index("-cp")])
