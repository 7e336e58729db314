"""The model-driven paper's comparison on the local cluster (seed 002 §8.4-8.5): for the micro-DAGs
at rates the cluster can hold, MBA+SAM vs LSA+RSM vs LSA+DSM: slots allocated (ρ) and used, the
observed stable rate, and the models' predicted rate vs the observed one (R²).

Not a test: run it by hand on a machine as quiet as you can get, e.g.
    .venv/bin/python benchmarks/sizing_compare.py                 # linear, diamond, star at 5, 10, 20 t/s
    .venv/bin/python benchmarks/sizing_compare.py --quick         # linear at 5 and 10 t/s, shorter trials

Models: the measured tables (`pycontrol model build`, default pycontrol/sizing/data/measured/micro_tasks.yaml)
over the paper's models (which only supply the static source and sink). The micro-DAG topologies run
with the settings the models were measured with.

One cluster (--home, --port-base; taken down at the end). Nimbus runs the nonstop dispatcher
(io.nonstopstorm.scheduling.storm.NonstopScheduler), which picks the mapper by the topology conf:
  SAM  `nonstop.scheduler: slot-aware` with `nonstop.sam.allocation` from MBA;
  RSM  `nonstop.scheduler: ras`: Storm's ResourceAwareScheduler on that topology alone, configured as
       docs/seed-specs.md §1.10: the supervisors offer slots x 100 % CPU and slots x the slot memory (only RAS
       reads these), each thread requests its task's single-thread CPU and memory (LSA's parallelism);
  DSM  no key: Storm's DefaultScheduler (LSA's parallelism, topology.workers = ρ).
SAM and DSM runs share batches; each RSM run has the cluster alone, since RAS counts the resources
other topologies requested (Storm's defaults for SAM/DSM topologies) as taken.

Per run: submit, wait until placed and steady at 1 t/s, read the placement (slots used = workers;
predicted rate = pycontrol.sizing.predict on that placement, `fill` and `shuffle` routing), then
search the highest stable rate from the planned Ω (pycontrol.profiling: coarse steps, then bisection;
stable = flat latency, >= 95 % acked, nothing failed; see pycontrol/profiling/trials.py).
Writes results/sizing/sizing_compare.json (+ sizing_compare.png). The JSON says per (DAG, Ω) whether
MBA and LSA allocate differently (`allocations`: threads per task and ρ; per run `allocations_differ`):
where they agree, the pairs differ only by mapper. The summary gives how many distinct predictions its
R² rests on and how many runs had allocations that differ.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pycontrol.bench import sizing_compare  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="linear DAG at 5 and 10 t/s only, shorter trials")
    ap.add_argument("--dags", default="linear,diamond,star")
    ap.add_argument("--rates", default="5,10,20", help="planned DAG input rates Ω, t/s")
    ap.add_argument("--pairs", default=",".join(sizing_compare.PAIRS))
    ap.add_argument("--models", type=Path, default=sizing_compare.MEASURED, help="measured model table (pycontrol model build)")
    ap.add_argument("--nodes", type=int, default=2)
    ap.add_argument("--slots", type=int, default=4)
    ap.add_argument("--trial-secs", type=float, default=20.0)
    ap.add_argument("--search-minutes", type=float, default=6.0, help="time budget of one rate search")
    ap.add_argument("--precision", type=float, default=0.1,
                    help="a rate search ends when its stable/unstable bracket is within this fraction of its top")
    ap.add_argument("--start-timeout", type=float, default=1500.0,
                    help="s a topology may take to be placed and run steadily at 1 t/s")
    ap.add_argument("--home", default="/tmp/nonstop-bench-sizing")
    ap.add_argument("--port-base", type=int, default=24700)
    ap.add_argument("--out", type=Path, default=sizing_compare.OUT)
    ap.add_argument("--dry-run", action="store_true", help="print the planned runs (allocations) and stop")
    args = ap.parse_args()
    sizing_compare.main(args)


if __name__ == "__main__":
    main()
