"""The controller where placement matters: OTD live against a control run without moves.

The cluster: 2 nodes pinned to CPUs of their own (`--pin-cpus`: node1 on CPU 0, node2 on CPU 1 of a
2-CPU machine), so a node's capacity is its own, as on separate machines; node1 offers 1 slot, node2 3.
The workload: the heavy word count (split computes harmonic numbers) with 4 workers and 8 split
executors under Storm's default placement, which spreads executors evenly over workers, not over nodes'
capacity: node2's three workers hold 6 of the 8 splits on one CPU while node1 holds 2 on the other.
Node2 is the bottleneck and node1 has room, so moving splits to node1 can raise what the topology
takes. Load-aware shuffling is off (it would route sentences away from the busy splits and hide the
imbalance). Each split's harmonic sums are made heavy (HEAVY_BASE) so that they, more than Storm's own
per-tuple work, bound the topology, and the workers compile with C1 only (JIT): a light split under C2
left the outcome to minutes of JIT warm-up (warm, the default placement kept up with 2000 sentences/s and
OTD had nothing to fix; cold, both runs' throughput jumped at the same offset). The offered rate is above
what either placement takes, so throughput (acked/s) is the measure: each run takes what its placement
allows, and both fall further behind the offered schedule (latency from the intended emit time grows in
both; it is reported, not the point). An offered rate between the two capacities would depend on the
machine's speed; one above both does not. OTD's high/low CPU thresholds
come from the warm-up (mean worker share x (1 +- live.CALIBRATION_BAND)) rather than the compute
benchmark's fixed 0.9 / 0.86: a demo machine runs other work on the same CPUs, and then every worker
reads below a fixed threshold, OTD sees no overloaded worker (its case 3) and moves splits by traffic
alone, onto the crowded node (a run at load average 50-110 did exactly that). Relative to the warm-up,
node2's workers, three on one CPU, read high and node1's low.

Two runs on the same cluster, back to back, each on a fresh submission of the same topology, so both
start from Storm's same default placement and fresh worker JVMs: OTD first (the warm-up with the
controller observing, left out of the comparison; then policy otd for phase_s), then the control (the
same warm-up, then policy plan-only for phase_s: the same controller and measurements, nothing moved).
No wait for the workload to settle at the offered rate: by design neither placement takes it. Not interleaved: two topologies at once
would share the pinned CPUs, and OTD's moves would change the control's conditions. OTD goes first so
that whatever the cluster's own daemons gain from running longer favours the control, not OTD.

Drift: the heavy word count's per-key cost changes per wall-clock epoch (epoch = now / drift), each epoch
drawing new weights. Two runs at different times see different epochs and therefore different costs,
whatever their phase alignment, so a drifting cost would differ between OTD and its control. And with
sentences shuffled to the splits a drift changes every split's cost alike (it moves the total, it makes
no split hot). Here the cost does not drift (runner.NO_DRIFT_S): both runs see the same per-key costs.

Latency is the spout's, from each sentence's intended emit time: while the offered rate is above what
a placement takes, the spout falls further behind and this latency grows through the run, in both runs
alike at equal offsets; a run that takes more falls behind less (and recovers when it takes more than is
offered). The windows compare equal offsets, so this stays a like-for-like comparison.

The comparison itself is pure (comparison.py); this module is the thin adapter over live.py's pieces."""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Callable
from pathlib import Path

from pycontrol.bench.otd import comparison, plots
from pycontrol.bench.otd.live import (CALIBRATION_BAND, CLUSTER_CONF, Experiment, RunData, cluster_session,
                                      run_on_cluster, wait_topology_gone)
from pycontrol.bench.otd.runner import COMPUTE_METRICS_PERIOD_S, COMPUTE_OTD, NO_DRIFT_S
from pycontrol.bench.otd.summary import topology_workers
from pycontrol.cluster.spec import cpus_per_node, make_spec
from pycontrol.errors import UserError
from pycontrol.workloads.submit import EVEN_SHUFFLE

TOPOLOGY = "demo-controller"
WORKLOAD = "wordcount-heavy-java"
NODE_SLOTS = (1, 3)
WINDOW_S = 10.0
MIN_WINDOWS = 3
RATE = 2000           # sentences/s offered: above what either placement takes (see the module's docstring)
HEAVY_BASE = 40000     # harmonic-sum terms per word and key weight: the splits' work bounds the topology
# Worker JVMs compile with C1 only: C2's compiler threads share the saturated pinned CPUs, so with them
# both runs' throughput jumped (~550 -> ~1000 acked/s) at the same offset 60-80 s in, whatever the
# placement; with C1 only it is flat from the start (quiet-machine runs, 2026-11-27).
JIT = "topology.worker.childopts=-XX:TieredStopAtLevel=1"
# netns nodes (as root): each node's egress link shaped by tbf, as separate machines on a 100 Mbit/s
# network. The word count's inter-node traffic (about 2000 sentences and their words per second, and
# acks) stays well below it, so the link separates the nodes without becoming the bottleneck. No delay:
# netem is not in every kernel (not in this project's reference machine's), and a delay there but not
# elsewhere would make the demo's figures depend on the kernel.
LINK_BANDWIDTH = "100mbit"
PENDING = 1000         # in flight per spout task: the nodes' CPUs, not this, bound throughput
SETTINGS = ("topology.workers=4", "workload.par.split=8", "workload.par.count=4", f"workload.rate={RATE}",
            f"topology.max.spout.pending={PENDING}", f"workload.heavy.drift.secs={NO_DRIFT_S}",
            f"workload.heavy.base={HEAVY_BASE}", JIT,
            "topology.message.timeout.secs=120", EVEN_SHUFFLE,
            f"nonstop.metrics.period.secs={COMPUTE_METRICS_PERIOD_S}")
# The compute benchmark's OTD parameters, its fixed CPU thresholds replaced by the calibrated ones.
OTD_PARAMS = {k: v for k, v in COMPUTE_OTD.items() if k not in ("high_cpu", "low_cpu")}
# Recommended lengths for the benchmark-length run: 180 s leaves OTD room for several moves (at most one
# per 15 s: 5 s cycles, 10 s cooldown) and gives each run 18 windows.
DEMO_WARMUP_S, DEMO_PHASE_S = 30.0, 180.0


def controller_experiment(policy: str, warmup_s: float, phase_s: float) -> Experiment:
    """The warm-up is the observing phase ("default"); the measured phase runs `policy`."""
    if phase_s < MIN_WINDOWS * WINDOW_S:
        raise UserError(f"the phase must last at least {MIN_WINDOWS * WINDOW_S:g} s ({MIN_WINDOWS} windows of "
                        f"{WINDOW_S:g} s), got {phase_s:g}")
    if warmup_s < 10:
        raise UserError(f"the warm-up must last at least 10 s (two controller cycles), got {warmup_s:g}")
    return Experiment(WORKLOAD, TOPOLOGY, SETTINGS, warmup_s, phase_s, dict(OTD_PARAMS), warmup_s=0.0,
                      calibrate_band=CALIBRATION_BAND, second_policy=policy)


def run_controller_part(home: Path, out_dir: Path, echo: Callable[[str], None], *, port_base: int,
                        warmup_s: float, phase_s: float, network: str = "loopback", keep: bool = False) -> dict:
    """Brings up the pinned cluster (on loopback addresses, or netns nodes with shaped links), runs OTD and
    then its control, takes the cluster down (unless keep), writes out_dir/controller.json and the
    timeline figure, and returns the same document."""
    otd_exp = controller_experiment("otd", warmup_s, phase_s)
    control_exp = controller_experiment("plan-only", warmup_s, phase_s)
    pins = cpus_per_node(2, sorted(os.sched_getaffinity(0)))
    spec = make_spec(home, nodes=2, node_slots=NODE_SLOTS, node_cpus=pins, port_base=port_base,
                     network=network, link_bandwidth=LINK_BANDWIDTH if network == "netns" else None,
                     extra_conf=CLUSTER_CONF)
    out_dir.mkdir(parents=True, exist_ok=True)
    with cluster_session(spec, echo, keep):
        echo(f"run 1 of 2: OTD ({warmup_s:g} s warm-up, then {phase_s:g} s with policy otd)")
        otd = run_on_cluster(spec, otd_exp, echo)
        wait_topology_gone(spec, TOPOLOGY)
        echo(f"run 2 of 2: control ({warmup_s:g} s warm-up, then {phase_s:g} s observing only, no moves)")
        control = run_on_cluster(spec, control_exp, echo)
    doc = build_document(otd, control, spec_info={"nodes": 2, "node_slots": list(NODE_SLOTS),
                                                  "node_cpus": [list(c) for c in pins],
                                                  "node_hosts": [n.host for n in spec.node_specs], "network": spec.network,
                                                  "link_bandwidth": spec.link_bandwidth},
                         warmup_s=warmup_s, phase_s=phase_s, port_base=port_base, home=home, out_dir=out_dir)
    for line in doc["summary_lines"]:
        echo(line)
    (out_dir / "controller.json").write_text(json.dumps(doc, indent=2))
    echo(f"written: {out_dir / 'controller.json'}, {', '.join(doc['figures'])}")
    return doc


def _node_cpus(spec_info: dict) -> dict[str, int]:
    """host -> CPUs of each node, as the cluster was pinned (empty when unknown)."""
    return {h: len(c) for h, c in zip(spec_info.get("node_hosts") or [], spec_info.get("node_cpus") or [])}


def _run_windows(data: RunData, phase_s: float, node_cpus: dict[str, int]) -> list[dict]:
    """The measured phase's windows, up to phase_s: a controller cycle waiting on a slow move can end the
    phase late, and both runs must be compared over the same stretch."""
    samples = [s.to_dict() for s in data.samples]
    start, end = data.phases["otd"]
    return comparison.windows(samples, data.seconds, start, min(end, start + phase_s), WINDOW_S,
                              topology_workers(samples), node_cpus)


def build_document(otd: RunData, control: RunData, *, spec_info: dict, warmup_s: float, phase_s: float,
                   port_base: int, home: Path, out_dir: Path) -> dict:
    node_cpus = _node_cpus(spec_info)
    otd_w, control_w = _run_windows(otd, phase_s, node_cpus), _run_windows(control, phase_s, node_cpus)
    table = comparison.compare(otd_w, control_w)
    t0 = otd.phases["otd"][0]
    moves = [{"executor": m["executor"], "from_slot": m["from_slot"], "to_slot": m["to_slot"],
              "reason": m["reason"], "ts": m["at"], "outcome": m.get("outcome")} for m in otd.moves]
    lines = comparison.summary_lines(table, moves, (len(otd_w), len(control_w)), WINDOW_S)
    lines += comparison.stall_warnings({"OTD": otd_w, "control": control_w})
    lines.append(comparison.offered_rate_line(table, RATE))
    lines.append(nodes_line(spec_info))
    if not moves:
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(otd.decisions.items())) or "none recorded"
        lines.insert(2, f"  OTD made no move: its cycles' decisions were {kinds} (controller.json: runs.otd.cycles)")
    figure = plots.plot_comparison(otd_w, control_w, list(comparison.METRICS), comparison.LABELS,
                                   [round(m["ts"] - t0, 3) for m in moves],
                                   f"OTD vs control (no moves): {WORKLOAD}, pinned nodes", out_dir / "controller.png")
    return {
        "summary_lines": lines, "comparison": table, "moves": moves, "figures": [str(figure)],
        "commands": _commands(home, port_base, warmup_s, phase_s, out_dir, spec_info),
        "window_s": WINDOW_S, "warmup_s": warmup_s, "phase_s": phase_s, "workload": WORKLOAD,
        "settings": list(SETTINGS), "otd_params": otd.otd_params, "cluster": spec_info,
        "runs": {name: _run_doc(data, ws) for name, data, ws in (("otd", otd, otd_w), ("control", control, control_w))},
    }


def _run_doc(data: RunData, ws: list[dict]) -> dict:
    return {"topology_id": data.topology_id, "phases": {k: list(v) for k, v in data.phases.items()},
            "moves_made": len(data.moves), "decisions": data.decisions, "windows": ws,
            "worker_cpus": {str(port): list(cpus) for port, cpus in sorted(data.worker_cpus.items())},
            "cycles": data.cycles, "samples": [s.to_dict() for s in data.samples], "seconds": data.seconds}


def nodes_line(spec_info: dict) -> str:
    """How the two nodes were separated, so a reader knows what the comparison ran on."""
    cpus = " and ".join(f"CPU {','.join(map(str, c))}" for c in spec_info["node_cpus"])
    if spec_info["network"] == "netns":
        return (f"  nodes: pinned to {cpus}; each in its own network namespace, its link shaped to "
                f"{spec_info['link_bandwidth']} (tbf)")
    return f"  nodes: pinned to {cpus}; loopback addresses, no network between them (not root: no namespaces)"


def _commands(home: Path, port_base: int, warmup_s: float, phase_s: float, out_dir: Path,
              spec_info: dict) -> list[str]:
    q = shlex.quote
    network = spec_info["network"]
    call = (f"from pathlib import Path; from pycontrol.bench.otd.controlled import run_controller_part; "
            f"run_controller_part(Path({str(home)!r}), Path({str(out_dir)!r}), print, port_base={port_base}, "
            f"warmup_s={warmup_s:g}, phase_s={phase_s:g}, network={network!r})")
    sets = " ".join(f"--set {q(s)}" for s in SETTINGS)
    net = f" --network netns --link-bandwidth {spec_info['link_bandwidth']}" if network == "netns" else ""
    return [
        f"python -c {q(call)}",
        "# or by hand, one run at a time:",
        f"pycontrol cluster up --pin-cpus --node-slots {q(';'.join(map(str, NODE_SLOTS)))}{net} --port-base {port_base} "
        f"--home {q(str(home))} " + " ".join(f"--conf {q(f'{k}={v}')}" for k, v in CLUSTER_CONF.items()),
        f"pycontrol topology submit {WORKLOAD} --name {TOPOLOGY} {sets} --home {q(str(home))}",
        f"pycontrol cluster down --home {q(str(home))}",
    ]
