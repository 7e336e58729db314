"""Watching a move take effect on a local cluster: worker JVM pids and the workers' migration event
files, turned into a timeline of one move (shared by the integration tests and the benchmark)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from pycontrol.cluster.layout import Layout
from pycontrol.cluster.spec import ClusterSpec
from pycontrol.errors import UserError
from pycontrol.migration.events import events_file, first, read_events
from pycontrol.wire.executor import ExecutorId


def _node(spec: ClusterSpec, host: str):
    for n in spec.node_specs:
        if n.host == host:
            return n
    raise UserError(f"no node of this cluster has host {host}")


def worker_pids(spec: ClusterSpec, topo_id: str, slots: set[str] | None = None) -> dict[str, int]:
    """"host:port" -> pid of the topology's last worker JVM there (from the pid files Storm writes next
    to the worker logs). A slot the topology has left keeps its old pid file: pass the topology's
    current slots to look at those only."""
    layout = Layout(spec.home)
    out = {}
    for n in spec.node_specs:
        for pid_file in (layout.node_log_dir(n.name) / "workers-artifacts" / topo_id).glob("*/worker.pid"):
            slot = f"{n.host}:{pid_file.parent.name}"
            if slots is not None and slot not in slots:
                continue
            try:
                out[slot] = int(pid_file.read_text().strip())
            except (OSError, ValueError):
                continue
    return out


def slot_events(spec: ClusterSpec, slot: str) -> list[dict]:
    host, port = slot.rsplit(":", 1)
    return read_events(events_file(Layout(spec.home).node_local_dir(_node(spec, host).name), int(port)))


@dataclass(frozen=True)
class MoveTimeline:
    """Milliseconds after the plan was written (t0) at which each step happened."""
    started_ms: float            # executor running in the target worker
    target_switched_ms: float    # target worker's local senders use it
    source_switched_ms: float    # source worker's local senders stopped using the old one
    stopped_ms: float | None     # old executor shut down (lazy kill done); None until then
    queued_at_stop: int | None   # tuples still in the old executor's queue (forwarded)
    unparked: int                # tuples that reached the target before the executor and waited
    dropped_total: int           # tuples the source worker gave up on so far (acker replays them)

    @property
    def effect_ms(self) -> float:
        """Plan written -> the executor runs on the target and both workers route to its new place."""
        return max(self.started_ms, self.target_switched_ms, self.source_switched_ms)


def move_timeline(src: list[dict], dst: list[dict], executor_key: str, t0_ms: float) -> MoveTimeline | None:
    """One move's timeline from the source and target workers' events, or None while the executor has
    not started on the target or either worker has not switched its routing yet. stopped_ms and
    queued_at_stop are None until the lazy kill is done. Pure."""
    started = first(dst, "started", t0_ms, executor=executor_key)
    if not started:
        return None
    dst_switch = first(dst, "switch", started["t_ms"])
    src_switch = first(src, "switch", t0_ms)
    if not (dst_switch and src_switch):
        return None
    stopped = first(src, "stopped", t0_ms, executor=executor_key)
    return MoveTimeline(started["t_ms"] - t0_ms, dst_switch["t_ms"] - t0_ms, src_switch["t_ms"] - t0_ms,
                        stopped["t_ms"] - t0_ms if stopped else None,
                        int(stopped.get("queued", 0)) if stopped else None,
                        int(started.get("unparked", 0)), int(stopped.get("dropped_total", 0)) if stopped else 0)


def wait_move_done(spec: ClusterSpec, executor: ExecutorId, source: str, target: str, t0_ms: float,
                   timeout_s: float = 60) -> MoveTimeline:
    key = str(executor)
    deadline = time.monotonic() + timeout_s
    while True:
        timeline = move_timeline(slot_events(spec, source), slot_events(spec, target), key, t0_ms)
        if timeline is not None and timeline.stopped_ms is not None:
            return timeline
        if time.monotonic() > deadline:
            raise UserError(f"executor {key} did not finish moving {source} -> {target} within {timeout_s:.0f} s "
                            f"(started and switched: {timeline is not None}, old one stopped: False)")
        time.sleep(0.2)
