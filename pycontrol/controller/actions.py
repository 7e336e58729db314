"""What the controller can do to a topology, as plain values."""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Move:
    """Move one executor to another worker slot ("host:port"), with why and the expected gain."""

    topology: str
    executor: str          # "[start-end]" as Storm's UI names it
    from_slot: str
    to_slot: str
    reason: str = ""
    expected_gain: float = 0.0   # e.g. inter-node tuples/s saved, or CPU share relieved

    def to_dict(self) -> dict:
        return asdict(self)

    @staticmethod
    def from_dict(d: dict) -> Move:
        return Move(d["topology"], d["executor"], d["from_slot"], d["to_slot"], d.get("reason", ""),
                    float(d.get("expected_gain", 0.0)))
