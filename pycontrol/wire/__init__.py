"""What the control plane exchanges with the cluster, in one place: executor ids (executor.py), the
/nonstop ZooKeeper layout (paths.py), and the readers and writers of the documents stored there
(metrics_document.py, plan_document.py, decision_document.py). Pure: no I/O."""
