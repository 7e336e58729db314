"""The controller's live model of a running topology (networkx graphs plus loads), shared by the
metrics plane, `pycontrol inspect`, the Prometheus exporter and the planners."""

from pycontrol.model.live import LiveModel, LostWorker, NodeState, WorkerState, build_model

__all__ = ["LiveModel", "LostWorker", "NodeState", "WorkerState", "build_model"]
