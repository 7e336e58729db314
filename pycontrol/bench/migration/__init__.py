"""`pycontrol bench migration`: the N-Storm paper's experiment (seed 000 §5.2) side by side.

A random re-deployment driver moves M executors of the word count every period, keeping executors
evenly spread over the topology's workers; each scheme (stock Storm's rebalance and worker-restart,
nonstop, nonstop+, a T_S/T_W sweep) runs on its own fresh local cluster, against a no-migration
baseline, `--repeat` times in rotated orders. Pure parts: `driver` (which executors move where),
`measures` (degradation seconds, totals, latency, per-move measures), `effect` (plan-to-effect over
every sending worker), `schemes` (what each scheme sets, repetitions), `spread` (n, median, range).
Adapters: `census` (JVMs loading the agent), `machine` (load, CPU frequency), `realize` (plans in
ZooKeeper, rebalance through the UI REST API), `runner` (clusters, runs), `report` (JSON, plots).
"""
