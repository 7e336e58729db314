"""Speaks Storm's multilang protocol to a Python component, as ShellBolt does (no Storm needed).

Messages are JSON objects, each followed by a line "end". The component gets a handshake
(conf, context, pidDir), answers with its pid, then gets tuples and heartbeats.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]


class MultilangPeer:
    def __init__(self, component: str, conf: dict, tmp_path: Path, task_id: int = 7, component_id: str = "c"):
        pid_dir = tmp_path / "pids"
        pid_dir.mkdir(exist_ok=True)
        # The worker runs `<python> -m streamparse.run module.Class` in the topology's code dir;
        # the repository root has the same layout (topologies/ at the top).
        self.proc = subprocess.Popen([sys.executable, "-m", "streamparse.run", component], cwd=REPO_ROOT,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
        self.send({"conf": conf, "pidDir": str(pid_dir),
                   "context": {"task->component": {str(task_id): component_id, str(task_id - 1): component_id, "1": "spout"},
                               "taskid": task_id, "componentid": component_id}})
        reply = self.read()
        assert "pid" in reply, reply
        assert (pid_dir / str(reply["pid"])).exists()
        self.pid = reply["pid"]

    def send(self, msg: dict) -> None:
        self.proc.stdin.write(json.dumps(msg) + "\nend\n")
        self.proc.stdin.flush()

    def read(self) -> dict:
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise AssertionError(f"component exited: {self.proc.wait(5)}; stderr: {self.proc.stderr.read()[-2000:]}")
            if line.rstrip("\n") == "end":
                return json.loads("".join(lines))
            lines.append(line)

    def tuple(self, tid: str, values: list, stream: str = "default", comp: str = "spout", task: int = 1) -> list[dict]:
        """Sends a tuple; returns everything the component says up to its ack/fail of that tuple."""
        self.send({"id": tid, "comp": comp, "stream": stream, "task": task, "tuple": values})
        return self._until_done(tid)

    def tick(self, tid: str = "tick-1") -> list[dict]:
        self.send({"id": tid, "comp": "__system", "stream": "__tick", "task": -1, "tuple": [1]})
        return self._until_done(tid)

    def heartbeat(self) -> dict:
        self.send({"id": "-1", "comp": None, "stream": "__heartbeat", "task": -1, "tuple": []})
        while True:
            msg = self.read()
            if msg.get("command") != "log":
                return msg

    def command(self, msg: dict) -> list[dict]:
        """Spout side: sends next/ack/fail; returns what the spout says up to its sync."""
        self.send(msg)
        out = []
        while True:
            reply = self.read()
            if reply.get("command") == "sync":
                return out
            if reply.get("command") != "log":
                out.append(reply)

    def _until_done(self, tid: str) -> list[dict]:
        out = []
        while True:
            msg = self.read()
            if msg.get("command") == "log":  # pystorm's own log lines
                continue
            out.append(msg)
            if msg.get("command") in ("ack", "fail") and msg.get("id") == tid:
                return out

    def close(self) -> int:
        """Closing stdin is Storm going away: the component exits by itself."""
        self.proc.stdin.close()
        try:
            return self.proc.wait(10)
        finally:
            self.proc.stdout.close()
            self.proc.stderr.close()


def emits(messages: list[dict]) -> list[list]:
    return [m["tuple"] for m in messages if m.get("command") == "emit"]
