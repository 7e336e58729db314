"""Is a port free, and if not, who holds it."""

from __future__ import annotations

import errno
import socket

import psutil


def in_use(port: int) -> bool:
    # Storm's servers bind the wildcard address, so that is what has to be free.
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("0.0.0.0", port))
        except OSError as e:
            return e.errno == errno.EADDRINUSE
    return False


def owner(port: int) -> str | None:
    """'pid 123 (java …)' of the listener on the port, if this user may see it."""
    try:
        conns = psutil.net_connections(kind="tcp")
    except psutil.Error:
        return None
    for c in conns:
        if c.status == psutil.CONN_LISTEN and c.laddr and c.laddr.port == port and c.pid:
            try:
                p = psutil.Process(c.pid)
                cmd = " ".join(p.cmdline())
            except psutil.Error:
                return f"pid {c.pid}"
            return f"pid {c.pid} ({cmd[:120]})"
    return None


def first_busy(ports: list[int]) -> tuple[int, str | None] | None:
    for port in ports:
        if in_use(port):
            return port, owner(port)
    return None
