"""A per-slot limit on a task: at most K of its executors in one worker hold a token at a time.

Why: in the model-driven paper a slot is one core of a VM with its own network link, so a task's rate
per slot peaks at some thread count and then stays flat or falls (its Blob and Table models). Here every
slot shares the same 2 cores and loopback, so nothing saturates per slot by itself and allocators that
assume linear scaling (LSA) look as good as those that do not (MBA). A token stands for what a slot has
K of: a connection to the remote service (the blob and table stand-ins wait while holding one) or a core
(Pi computes while holding one).

A Python bolt's executors are separate processes, one per executor, all children of their worker's JVM,
so the token is a lock file taken with flock(2): K files per (worker JVM, component) in a directory named
after the worker's pid. The kernel drops a process's locks when it dies, so a killed executor never keeps
a token.
"""

from __future__ import annotations

import fcntl
import os
import random
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(tempfile.gettempdir()) / "nonstop-slot-limit"
PROC = Path("/proc")
POLL_FIRST_S = 0.001   # a waiter's first pause; doubled up to POLL_MAX_S (small against a 300 ms wait)
POLL_MAX_S = 0.008


def _parent_and_name(pid: int, proc: Path) -> tuple[int, str]:
    """(ppid, comm) from /proc/<pid>/stat; comm may hold spaces and parentheses, so split at the last ')'."""
    text = (proc / str(pid) / "stat").read_text()
    name = text[text.index("(") + 1:text.rindex(")")]
    return int(text[text.rindex(")") + 2:].split()[1]), name


def worker_pid(pid: int | None = None, proc: Path = PROC) -> int:
    """The pid of the JVM this process runs under (the first `java` ancestor): Storm may start a bolt's
    command through a shell. Without /proc, or with no java ancestor, the parent: a limit per parent
    still holds, only narrower."""
    pid = os.getpid() if pid is None else pid
    try:
        ppid, _ = _parent_and_name(pid, proc)
        first = ppid
        while ppid > 1:
            parent, name = _parent_and_name(ppid, proc)
            if name == "java":
                return ppid
            ppid = parent
        return first
    except (OSError, ValueError, IndexError):
        return os.getppid()


class SlotLimit:
    """K tokens shared by every process that opens the same directory with the same K."""

    def __init__(self, directory: Path, tokens: int, rng: random.Random | None = None, sleep=time.sleep):
        if tokens < 1:
            raise ValueError(f"a slot limit needs at least 1 token, got {tokens}")
        directory.mkdir(parents=True, exist_ok=True)
        self.paths = [directory / f"token-{i}" for i in range(tokens)]
        self.rng = rng or random.Random()
        self.sleep = sleep
        self._fds: list[int] = []

    @classmethod
    def for_component(cls, component: str, tokens: int, root: Path = ROOT) -> "SlotLimit | None":
        """The limit of this component in this worker; None when tokens <= 0 (no limit: the task as before)."""
        if tokens <= 0:
            return None
        return cls(root / f"{worker_pid()}-{component}", tokens)

    def _open(self) -> list[int]:
        if not self._fds:   # opened once per process: flock locks belong to the open file description
            self._fds = [os.open(p, os.O_RDWR | os.O_CREAT, 0o600) for p in self.paths]
        return self._fds

    @contextmanager
    def held(self) -> Iterator[int]:
        """Holds one token for the block (yields its index). Sweeps every token without waiting, from a
        random one so that none is favoured, and sweeps again after a short pause until one is free:
        blocking on one token would leave a waiter queued there while another token is free."""
        fds = self._open()
        pause = POLL_FIRST_S
        while True:
            start = self.rng.randrange(len(fds))
            got = next((i for i in ((start + k) % len(fds) for k in range(len(fds))) if self._try(fds[i])), None)
            if got is not None:
                break
            self.sleep(pause)
            pause = min(2 * pause, POLL_MAX_S)
        try:
            yield got
        finally:
            fcntl.flock(fds[got], fcntl.LOCK_UN)

    @staticmethod
    def _try(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            return False

    def close(self) -> None:
        for fd in self._fds:
            os.close(fd)
        self._fds = []
