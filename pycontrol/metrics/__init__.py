"""The metrics plane, controller side: read the workers' documents (ZooKeeper) and the cluster's
structure (UI REST API), and expose them (model, `pycontrol inspect`, Prometheus)."""
