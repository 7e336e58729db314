"""Benchmarks driven from the command line (`pycontrol bench ...`): each brings up its own local
clusters, runs a workload under a controlled disturbance and writes JSON and plots under results/."""
