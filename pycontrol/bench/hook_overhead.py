"""The metrics hook's overhead from paired rounds (pure; benchmarks/metrics_overhead.py measures).

A round runs the same flat-out topology once with the hook and once without, on the same cluster, the
order alternated from round to round. Its paired overhead is 1 - with/without throughput (positive: the
hook costs throughput), and the CPU per tuple's is with/without - 1. Pairing removes what drifts
between rounds (the machine's other load); the rounds' paired overheads are then independent values,
and the 3 % target is judged on the upper end of their mean's 95 % t-interval (pycontrol.bench.stats):
"met" only when the whole interval is within the target, "not met" when it lies wholly beyond,
"undecided" when it straddles the target. A single round, or noise in the hook's favour, can therefore
not pass the target by itself. The same judgement is also given on the median's bootstrap interval: a
flat-out JVM sometimes runs its per-tuple path in a slow mode (about half the throughput for the same
CPU, in either arm, in a few rounds), which widens the mean's interval without saying anything about
the hook; the median is robust to those rounds.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from pycontrol.bench import stats
from pycontrol.errors import UserError

TARGET = 0.03


def paired_rounds(phases: Sequence[Mapping]) -> list[dict]:
    """One row per round that has both a hook and a no-hook phase: throughputs and paired overheads.
    A round missing either phase (a failed submission) is left out, not guessed."""
    by_round: dict[int, dict[bool, Mapping]] = {}
    hook_first: dict[int, bool] = {}
    for p in phases:
        hook_first.setdefault(int(p["round"]), bool(p["hook"]))
        by_round.setdefault(int(p["round"]), {})[bool(p["hook"])] = p
    rows = []
    for r in sorted(by_round):
        pair = by_round[r]
        if True not in pair or False not in pair:
            continue
        on, off = pair[True], pair[False]
        if off["tuples_per_s"] <= 0 or off["cpu_ns_per_tuple"] <= 0:
            raise UserError(f"round {r}: the no-hook phase has no throughput ({off['tuples_per_s']} tuples/s)")
        rows.append({"round": r, "hook_first": hook_first[r],
                     "with_hook_tuples_per_s": on["tuples_per_s"], "without_hook_tuples_per_s": off["tuples_per_s"],
                     "overhead": 1 - on["tuples_per_s"] / off["tuples_per_s"],
                     "cpu_per_tuple_overhead": on["cpu_ns_per_tuple"] / off["cpu_ns_per_tuple"] - 1})
    return rows


def analyse(phases: Sequence[Mapping], target: float = TARGET) -> dict:
    """Paired per-round overheads, their summaries (n, median, mean, range, 95 % intervals) and the
    verdict on the target from the throughput overhead's mean interval."""
    rows = paired_rounds(phases)
    if not rows:
        raise UserError("no round has both a hook and a no-hook phase")
    thr = stats.summarize([r["overhead"] for r in rows])
    cpu = stats.summarize([r["cpu_per_tuple_overhead"] for r in rows])
    return {"rounds": len(rows),
            "overhead_per_round": [round(r["overhead"], 4) for r in rows],
            "cpu_per_tuple_overhead_per_round": [round(r["cpu_per_tuple_overhead"], 4) for r in rows],
            "overhead_summary": thr.as_dict(), "cpu_per_tuple_overhead_summary": cpu.as_dict(),
            "target_overhead": target, "judged_on": "upper end of the 95 % t-interval of the mean paired overhead",
            "verdict": stats.judge_upper(thr.mean_ci, target),
            "cpu_verdict": stats.judge_upper(cpu.mean_ci, target),
            # The same target on the median's bootstrap interval: a JVM that happens to run its flat-out
            # path in a slow mode (either arm, some rounds) moves the mean a lot and the median little.
            "median_verdict": stats.judge_upper(thr.median_ci, target),
            "cpu_median_verdict": stats.judge_upper(cpu.median_ci, target)}
