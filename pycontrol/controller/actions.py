"""What the controller can do to a topology, as plain values."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from pycontrol.wire.executor import ExecutorId


@dataclass(frozen=True)
class Move:
    """Move one executor to another worker slot ("host:port"), with why and the expected gain."""

    topology: str
    executor: str          # "[start,end]", the wire spelling
    from_slot: str
    to_slot: str
    reason: str = ""
    expected_gain: float = 0.0   # e.g. inter-node tuples/s saved, or CPU share relieved

    def to_dict(self) -> dict:
        return asdict(self)

    @staticmethod
    def from_dict(d: dict) -> Move:
        executor = d["executor"]
        if isinstance(executor, str) and "," not in executor:
            # A pending move saved before the control plane spelled executors the wire way.
            executor = str(ExecutorId.from_ui(executor))
        return Move(d["topology"], executor, d["from_slot"], d["to_slot"], d.get("reason", ""),
                    float(d.get("expected_gain", 0.0)))
