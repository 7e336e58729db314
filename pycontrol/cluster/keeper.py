"""Runs one daemon of a local cluster and starts it again when it fails, as the systemd units that
Ansible installs do (Restart=on-failure). Storm's daemons are fail-fast by design: a supervisor halts
itself when its heartbeat cannot reach ZooKeeper, and expects to be started again.

    python -m pycontrol.cluster.keeper --name node1-supervisor -- java ... Supervisor

The keeper leads the daemon's process group (the manager starts it with start_new_session); the
daemon is its child, so a group stop (SIGTERM) reaches both and the keeper then exits with the daemon.
A daemon whose first run fails before it was known to have started failed at start-up: the keeper
exits with its code so the manager reports the start-up failure instead of looping on it. The daemon
counts as started once a run has lasted --armed-after seconds, or once --ready-file exists: the manager
creates it when it has seen the daemon serve (as sd_notify's READY=1 does for systemd), so a daemon that
served and then fails early, e.g. Nimbus halting on a ZooKeeper outage 19 s after it started, is
restarted. Once started, every failure is restarted, after a delay that doubles up to --max-delay and
falls back to --min-delay after a run that lasted --armed-after again.

The restart decision is the pure function `next_delay`; `main` is the thin process adapter.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Policy:
    armed_after_s: float = 20.0
    min_delay_s: float = 1.0
    max_delay_s: float = 30.0


def next_delay(policy: Policy, exit_code: int, ran_s: float, armed: bool, last_delay_s: float | None) -> float | None:
    """Seconds to wait before starting the daemon again, or None to give up (exit with its code).
    `armed`: some earlier run (or this one) lasted policy.armed_after_s."""
    if exit_code == 0:
        return None                                   # a clean exit is not a failure (Restart=on-failure)
    if not armed and ran_s < policy.armed_after_s:
        return None                                   # a start-up failure: report it, do not loop
    if ran_s >= policy.armed_after_s or last_delay_s is None:
        return policy.min_delay_s
    return min(policy.max_delay_s, last_delay_s * 2)


def _exit_status(code: int) -> int:
    return 128 - code if code < 0 else code   # killed by signal N: the shell's 128+N


def _say(name: str, text: str) -> None:
    print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} keeper[{name}]: {text}", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--name", required=True)
    ap.add_argument("--armed-after", type=float, default=Policy.armed_after_s)
    ap.add_argument("--min-delay", type=float, default=Policy.min_delay_s)
    ap.add_argument("--max-delay", type=float, default=Policy.max_delay_s)
    ap.add_argument("--ready-file", type=Path, help="exists once the daemon was seen serving (by the manager)")
    ap.add_argument("--cpus", default="", help="comma-separated CPUs the daemon and its children may run on")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args(argv)
    if args.cpus:
        # Set on the keeper itself, before the daemon starts: the daemon, its restarts and its workers inherit it.
        os.sched_setaffinity(0, {int(c) for c in args.cpus.split(",")})
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        ap.error("no daemon command given after --")
    policy = Policy(args.armed_after, args.min_delay, args.max_delay)

    stopping = False
    child: subprocess.Popen | None = None

    def on_stop(signum, _frame):
        nonlocal stopping
        stopping = True
        if child is not None and child.poll() is None:
            child.send_signal(signum)   # usually already sent to the whole group; harmless twice

    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(s, on_stop)

    armed, delay, runs = False, None, 0
    while True:
        runs += 1
        started = time.monotonic()
        child = subprocess.Popen(command, stdin=subprocess.DEVNULL)
        code = child.wait()
        ran_s = time.monotonic() - started
        if stopping:
            return _exit_status(code)
        armed = armed or ran_s >= policy.armed_after_s or bool(args.ready_file and args.ready_file.exists())
        delay = next_delay(policy, code, ran_s, armed, delay)
        if delay is None:
            _say(args.name, f"run {runs} exited with code {code} after {ran_s:.1f} s; not restarting")
            return _exit_status(code)
        _say(args.name, f"run {runs} exited with code {code} after {ran_s:.1f} s; starting it again in {delay:.0f} s")
        deadline = time.monotonic() + delay
        while not stopping and time.monotonic() < deadline:
            time.sleep(0.1)
        if stopping:
            return _exit_status(code)


if __name__ == "__main__":
    sys.exit(main())
