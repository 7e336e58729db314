"""The planner as one long-lived process (the scheduling plugin's PlanServer): started on the first
request and kept, so a controller starts one JVM for its life instead of one per topology per cycle.

One JSON request per line on its stdin, one JSON reply per line on its stdout (PlanServer.java). A
request that outlives its timeout gets the process killed; a dead process is started again on the next
request. After `max_restarts` starts in a row without one good reply the client gives up for good: every
request then fails at once with the reason, instead of starting a JVM a cycle that dies the same way.
"""

from __future__ import annotations

import collections
import json
import logging
import queue
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

from pycontrol.jvm import classpath, plancli
from pycontrol.jvm.command import JavaCommand, JvmError
from pycontrol.jvm.java import find_java

log = logging.getLogger(__name__)

MAX_RESTARTS = 3
_STDERR_LINES = 20
# A bounded heap: the process lives as long as the controller, next to the cluster's JVMs, and the JVM's
# default (a quarter of the machine's memory) would let it grow into theirs. A request line is at most
# 64 MiB (PlanServer's default); its parsed model fits in a few times that.
HEAP = "-Xmx512m"


@dataclass(frozen=True)
class PlanReply:
    """PlanServer's reply: PlanCli's exit code, its JSON result (None for bad input) and its error line."""
    exit: int
    result: dict[str, Any] | None
    error: str | None


def server_command(max_line_bytes: int | None = None) -> JavaCommand:
    args = ("--max-line-bytes", str(max_line_bytes)) if max_line_bytes else ()
    return JavaCommand(plancli.SERVER_MAIN, args, classpath.planner(), (HEAP,), what="the planner process")


def start_server(command: JavaCommand | None = None) -> subprocess.Popen:
    cmd = command or server_command()
    try:
        return subprocess.Popen(cmd.argv(find_java()), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
    except OSError as e:
        raise JvmError(f"cannot start {cmd.name}: {e}") from e


class _Running:
    """One started process with threads that drain its stdout (replies) and stderr (last lines)."""

    def __init__(self, proc: subprocess.Popen):
        self.proc = proc
        self.replies: queue.Queue[bytes | None] = queue.Queue()
        self.stderr: collections.deque[str] = collections.deque(maxlen=_STDERR_LINES)
        self.stdout_ended = threading.Event()   # its stdout closed: going or gone, even if not yet reaped
        threading.Thread(target=self._pump, args=(proc.stdout, self._reply), daemon=True).start()
        threading.Thread(target=self._pump, args=(proc.stderr, self._keep), daemon=True).start()

    def _reply(self, line: bytes | None) -> None:
        if line is None:
            self.stdout_ended.set()
        self.replies.put(line)

    def _keep(self, line: bytes | None) -> None:
        if line is not None:
            text = line.decode(errors="replace").rstrip()
            self.stderr.append(text)
            log.debug("planner process: %s", text)

    @staticmethod
    def _pump(stream: IO[bytes], put: Callable[[bytes | None], None]) -> None:
        for line in iter(stream.readline, b""):
            put(line)
        put(None)   # end of stream: the process is gone

    def alive(self) -> bool:
        return self.proc.poll() is None and not self.stdout_ended.is_set()

    def why(self) -> str:
        code = self.proc.poll()
        tail = [x for x in self.stderr if x.strip()][-3:]
        state = "still running" if code is None else f"exit {code}" if code >= 0 else f"killed by signal {-code}"
        return f"{state}; stderr: {' / '.join(tail) or 'nothing'}"

    def kill(self) -> None:
        if self.alive():
            self.proc.kill()
        self.proc.wait()


class PlannerProcess:
    """A client of one planner process, safe to share between threads (requests take turns)."""

    def __init__(self, start: Callable[[], subprocess.Popen] = start_server, max_restarts: int = MAX_RESTARTS):
        self._start = start
        self.max_restarts = max_restarts
        self._lock = threading.Lock()
        self._running: _Running | None = None
        self._failed_starts = 0          # starts since the last good reply
        self._gave_up: str | None = None
        self._next_id = 0
        self.starts = 0

    def plan(self, scheduler: str, document: dict, timeout_s: float) -> PlanReply:
        """Plans `document` (a PLAN-INPUT document) with `scheduler`. A JvmError if the process cannot
        answer: it could not start, died, or took longer than `timeout_s` (then it is killed)."""
        with self._lock:
            self._next_id += 1
            request = (json.dumps({"id": self._next_id, "scheduler": scheduler, "input": document}) + "\n").encode()
            # A process that died after the liveness check did not read the request: sending it again is safe.
            for attempt in (1, 2):
                running = self._ensure_running()
                try:
                    running.proc.stdin.write(request)
                    running.proc.stdin.flush()
                    break
                except OSError:
                    running.kill()
                    if attempt == 2:
                        raise JvmError(f"the planner process died before reading the request ({running.why()})")
            return self._reply(running, self._next_id, timeout_s)

    def _ensure_running(self) -> _Running:
        if self._gave_up:
            raise JvmError(self._gave_up)
        if self._running is not None and self._running.alive():
            return self._running
        if self._running is not None:
            log.warning("the planner process is gone (%s); starting it again", self._running.why())
        if self._failed_starts >= self.max_restarts + 1:
            last = self._running.why() if self._running else "none"
            self._gave_up = (f"the planner process failed {self._failed_starts} times in a row without answering "
                             f"(last: {last}); not starting it again (restart the controller once that is fixed)")
            raise JvmError(self._gave_up)
        self._failed_starts += 1
        self.starts += 1
        self._running = _Running(self._start())
        return self._running

    def _reply(self, running: _Running, request_id: int, timeout_s: float) -> PlanReply:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                line = running.replies.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                running.kill()
                raise JvmError(f"the planner took longer than {timeout_s:g} s and was stopped "
                               f"(it is started again for the next request)") from None
            if line is None:
                running.proc.wait()
                raise JvmError(f"the planner process died while planning ({running.why()})")
            try:
                reply = json.loads(line)
            except ValueError:
                running.kill()
                raise JvmError(f"the planner process wrote a line that is not a reply: {line[:200]!r}") from None
            if reply.get("id") not in (request_id, None):
                continue   # a late reply to an earlier request
            self._failed_starts = 0
            return PlanReply(int(reply.get("exit", plancli.INTERNAL_ERROR)), reply.get("result"), reply.get("error"))

    def close(self, wait_s: float = 5.0) -> None:
        """Ends the process: its stdin closes, so it exits after any request it is serving."""
        with self._lock:
            running, self._running = self._running, None
        if running is None:
            return
        try:
            running.proc.stdin.close()
        except OSError:
            pass
        try:
            running.proc.wait(wait_s)
        except subprocess.TimeoutExpired:
            running.kill()
