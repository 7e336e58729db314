"""`pycontrol bench migration`: the N-Storm paper's experiment (seed 000 §5.2) side by side.

A random re-deployment driver moves M executors of the word count every period, keeping executors
evenly spread over the topology's workers; each scheme (Storm's rebalance, worker-restart migration,
nonstop, nonstop+, a T_S/T_W sweep) runs on its own fresh local cluster, against a no-migration
baseline. Pure parts: `driver` (which executors move where), `measures` (degradation seconds,
totals, latency, plan-to-effect), `schemes` (what each scheme sets). Adapters: `realize` (plans in
ZooKeeper, rebalance through the UI REST API), `runner` (clusters, runs), `report` (JSON, plots).
"""
