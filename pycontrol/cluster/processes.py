"""Starting, tracking and stopping the cluster's processes.

A process is identified by pid *and* start time, so a recycled pid is never mistaken for ours.
Each daemon runs under a keeper (keeper.py: started again when it fails, as under systemd), which
leads the daemon's own process group (the daemon, its workers and their Python children join it), and
every JVM carries the cluster's marker, so strays can still be found after a crash.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

import psutil

from pycontrol.cluster.daemons import DaemonCommand

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ProcessRecord:
    name: str
    role: str
    pid: int
    create_time: float
    out_file: str
    log_file: str | None = None

    def to_dict(self) -> dict:
        return asdict(self)


def ready_file(rec_or_out: ProcessRecord | Path) -> Path:
    """The keeper's ready marker (see keeper.py), beside the daemon's stdout file."""
    out = Path(rec_or_out.out_file) if isinstance(rec_or_out, ProcessRecord) else rec_or_out
    return out.with_suffix(".ready")


def mark_ready(rec: ProcessRecord) -> None:
    """Tells the daemon's keeper it started: from now on a failure is restarted, even an early one."""
    ready_file(rec).touch()


def start(cmd: DaemonCommand, out_file: Path) -> ProcessRecord:
    """Starts the daemon under its keeper; the record is the keeper's (the group leader). The daemon
    counts as not yet started until `mark_ready`."""
    out_file.parent.mkdir(parents=True, exist_ok=True)
    ready = ready_file(out_file)
    ready.unlink(missing_ok=True)
    pin = ["--cpus", ",".join(map(str, cmd.cpus))] if cmd.cpus else []
    argv = ([sys.executable, "-m", "pycontrol.cluster.keeper", "--name", cmd.name, "--ready-file", str(ready), *pin, "--"]
            + (["ip", "netns", "exec", cmd.netns] if cmd.netns else []) + cmd.argv)
    env = {**os.environ, **cmd.env}
    with open(out_file, "ab") as out:
        p = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                             env=env, start_new_session=True, close_fds=True)
    create_time = psutil.Process(p.pid).create_time()
    return ProcessRecord(cmd.name, cmd.role, p.pid, create_time, str(out_file),
                         str(cmd.log_file) if cmd.log_file else None)


def is_alive(rec: ProcessRecord) -> bool:
    try:
        p = psutil.Process(rec.pid)
        return abs(p.create_time() - rec.create_time) < 0.01 and p.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def rss_bytes(rec: ProcessRecord) -> int:
    """Resident memory of the daemon and everything it started (workers, Python children)."""
    try:
        p = psutil.Process(rec.pid)
        procs = [p, *p.children(recursive=True)]
    except psutil.Error:
        return 0
    total = 0
    for q in procs:
        try:
            total += q.memory_info().rss
        except psutil.Error:
            pass
    return total


def _signal_group(rec: ProcessRecord, sig: int) -> None:
    try:
        os.killpg(rec.pid, sig)  # the daemon is its group's leader (start_new_session)
    except (ProcessLookupError, PermissionError):
        pass


def stop(records: Iterable[ProcessRecord], grace_s: float = 10.0) -> None:
    """SIGTERM each live daemon's process group, then SIGKILL whatever is left after the grace time."""
    live = [r for r in records if is_alive(r)]
    for r in live:
        _signal_group(r, signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline and any(is_alive(r) for r in live):
        time.sleep(0.2)
    for r in live:
        _signal_group(r, signal.SIGKILL)
    for r in live:
        try:
            psutil.Process(r.pid).wait(timeout=5)
        except psutil.Error:
            pass


def daemon_pid(rec: ProcessRecord) -> int | None:
    """The daemon's own process (the keeper's child), or None while the keeper is between runs."""
    try:
        kids = psutil.Process(rec.pid).children()
    except psutil.Error:
        return None
    return kids[0].pid if kids else None


WORKER_MAIN = "org.apache.storm.daemon.worker.Worker"


def parse_cpu_list(text: str) -> tuple[int, ...]:
    """The kernel's CPU list format ("0", "0-2,5") -> the CPUs, sorted."""
    cpus: set[int] = set()
    for item in text.strip().split(","):
        lo, _, hi = item.partition("-")
        cpus.update(range(int(lo), int(hi or lo) + 1))
    return tuple(sorted(cpus))


def worker_cpus(home: Path) -> dict[int, tuple[int, ...]]:
    """Slot port -> the CPUs each worker JVM of the cluster at `home` may run on, as the kernel has it
    (/proc/<pid>/status, Cpus_allowed_list): what pinning a node really gave its workers."""
    out = {}
    for p in psutil.process_iter(["pid", "cmdline"]):
        cmd = p.info["cmdline"] or []
        if WORKER_MAIN not in cmd or not any(str(home) in a for a in cmd):
            continue
        port = next((int(a.split("=", 1)[1]) for a in cmd if a.startswith("-Dworker.port=")), None)
        try:
            status = Path(f"/proc/{p.pid}/status").read_text()
        except OSError:
            continue    # the worker ended meanwhile
        allowed = next((ln.split(":", 1)[1] for ln in status.splitlines() if ln.startswith("Cpus_allowed_list:")), None)
        if port is not None and allowed is not None:
            out[port] = parse_cpu_list(allowed)
    return out


def kill_leader(rec: ProcessRecord) -> None:
    """SIGKILL the daemon's own process and its keeper (not its group), as a crash of the machine's
    supervision would: whatever the daemon started (a supervisor's workers) runs on. The keeper goes
    first, so it cannot start the daemon again; `manager.start_daemon` does that."""
    if not is_alive(rec):
        return
    try:
        leader = psutil.Process(rec.pid)
        daemon = leader.children()
        leader.kill()
        leader.wait(timeout=10)
        for d in daemon:
            d.kill()
        psutil.wait_procs(daemon, timeout=10)
    except psutil.Error:
        pass


def find_strays(marker: str, home: Path) -> list[psutil.Process]:
    """Processes of this cluster not reached through a daemon's group: JVMs carrying the marker,
    and anything running from the cluster's directories (e.g. a multilang child of an orphaned worker)."""
    strays = []
    home_s = str(home)
    for p in psutil.process_iter(["pid", "cmdline", "cwd"]):
        if p.pid == os.getpid():
            continue
        try:
            cmd = p.info["cmdline"] or []
            cwd = p.info["cwd"] or ""
        except psutil.Error:
            continue
        if any(marker in a for a in cmd) or cwd.startswith(home_s + os.sep):
            strays.append(p)
    return strays


def kill_processes(procs: list[psutil.Process], grace_s: float = 5.0) -> None:
    for p in procs:
        try:
            p.terminate()
        except psutil.Error:
            pass
    _, alive = psutil.wait_procs(procs, timeout=grace_s)
    for p in alive:
        try:
            p.kill()
        except psutil.Error:
            pass
    psutil.wait_procs(alive, timeout=5)


def tail(path: str | Path | None, lines: int = 25) -> str:
    if not path:
        return ""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - 64 * 1024))
            data = f.read().decode("utf-8", "replace")
    except OSError:
        return ""
    return "\n".join(data.splitlines()[-lines:])
