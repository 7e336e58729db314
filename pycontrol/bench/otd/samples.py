"""What one controller cycle saw, reduced to the few figures the experiment follows over time.
Pure: a live model in, a Sample out."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from pycontrol.controller import snapshot
from pycontrol.model.live import LiveModel


@dataclass(frozen=True)
class Sample:
    at: float                          # seconds since the epoch the model was taken
    phase: str                         # "default" or "otd"
    worker_cpu: dict[str, float]       # placed worker slot -> cores (JVM + child processes)
    total_tuples_per_s: float
    inter_node_share: float | None     # share of transferred tuples that cross nodes

    def to_dict(self) -> dict:
        return asdict(self)


def sample_of(model: LiveModel, phase: str) -> Sample:
    where = snapshot.placement(model)
    flows = snapshot.traffic(model)
    total = sum(flows.values())
    inter = snapshot.inter_node_tuples_per_s(flows, where)
    cpu = {s: round(w.load_cores, 4) for s in sorted(set(where.values()))
           if (w := model.workers.get(s)) is not None and w.load_cores is not None}
    return Sample(model.taken_at_ms / 1000, phase, cpu, round(total, 3),
                  None if total <= 0 else round(inter / total, 4))
