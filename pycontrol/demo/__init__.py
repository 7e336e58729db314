"""The main job, `pycontrol demo`: what the suite is for, shown on local clusters.

Part 1, "one move, two ways" (`move_part`): the same placement change applied by stock Storm (workers
killed and relaunched) and by nonstop (executors moved live), measured on the same workload.
Part 2, "the controller where placement matters": pycontrol.bench.otd.controlled.run_controller_part,
OTD live against a control run without moves. Then one results folder with demo.json, the figures and
report.html (`report_html`)."""

from __future__ import annotations

import json
import os
import platform
import time
from collections.abc import Callable
from dataclasses import asdict
from datetime import datetime, timezone
from pathlib import Path

from pycontrol.cluster import network
from pycontrol.demo import figure, move_part, report_html
from pycontrol.demo.options import DemoOptions, check_environment, resolve_network
from pycontrol.errors import UserError

ControllerPart = Callable[..., dict]
MOVE_FIGURE = "move.png"
REPORT = "report.html"
JSON_NAME = "demo.json"


def move_summary_lines(table: list[dict]) -> list[str]:
    """Plain-language lines from part 1's table: per placement change, what each way cost. Pure."""
    lines = []
    for r in table:
        what = f"{r['m']} executor{'s' if r['m'] != 1 else ''} moved" if r["m"] else "Storm's rebalance"
        p99 = "no acks" if r["latency_p99_ms"] is None else f"p99 latency {r['latency_p99_ms']:.0f} ms"
        restarts = r["worker_restarts"]
        if r.get("applied") is False:
            lines.append(f"{r['way']}, {what}: NOT applied ({r.get('not_applied_reason')}); nothing to compare")
            continue
        lines.append(f"{r['way']}, {what}: {restarts} worker restart{'s' if restarts != 1 else ''}, "
                     f"{r['low_s']} s below 40 % of the offered rate ({r.get('acked_short', 0)} tuples acked short of it), "
                     f"longest gap between acks "
                     f"{r['longest_gap_s']} s{'' if r.get('acking_at_end', True) else ' (still none at the window end)'}, {p99}, {r['failed']} failed / {r['replayed']} replayed tuples"
                     + ("" if r.get("recovered_before", True) else
                        " (made before the workload had recovered from the previous change)"))
    return lines


def census_lines(census: dict[str, dict[str, int]]) -> list[str]:
    return [f"{way}: {c['with_agent']} of the cluster's {c['jvms']} JVMs loaded the migration agent"
            for way, c in census.items()]


def move_commands(opts: DemoOptions) -> list[str]:
    return [f"./nonstop demo --part move --rate {opts.rate} --before {opts.before_s:g} --after {opts.after_s:g} "
            f"--moves {','.join(map(str, opts.moves))}{' --rebalance' if opts.rebalance else ''} "
            f"--port-base {opts.port_base} --network {opts.network}"]


def run_move_part(home: Path, opts: DemoOptions, out_dir: Path, echo: Callable[[str], None],
                  keep: bool = False) -> dict:
    results, census = [], {}
    for way in ("stock", "nonstop"):
        # The clusters share the port base: only the last one of the demo can stay up.
        last = way == "nonstop" and not opts.runs_controller
        got, census[way] = move_part.run_way(home, way, opts, echo, keep=keep and last)
        results.extend(got)
    table = move_part.table_rows(results, opts)
    timelines = move_part.timelines(results)
    figure.draw(timelines, opts.rate, out_dir / MOVE_FIGURE)
    return {"rate": opts.rate, "after_s": opts.after_s, "before_s": opts.before_s, "table": table,
            "summary_lines": census_lines(census) + move_summary_lines(table), "figures": [MOVE_FIGURE], "commands": move_commands(opts),
            "segments": [{"way": r.way, "m": r.m, "start_ts": r.start_ts, "move": r.move,
                          "restarted_workers": r.restarted, "recovered_before": r.recovered_before} for r in results],
            "timelines": timelines, "agent_census": census, "ways": {k: s.about for k, s in move_part.WAYS.items()}}


def load_controller_part() -> ControllerPart:
    try:
        from pycontrol.bench.otd.controlled import run_controller_part
    except ImportError as e:
        raise UserError(f"part 2 (the controller) is not available in this build: {e}") from None
    return run_controller_part


def relative_figures(part: dict, out_dir: Path) -> dict:
    """Figures as paths relative to the results folder (report.html sits in it)."""
    figs = [os.path.relpath(Path(p) if Path(p).is_absolute() else out_dir / p, out_dir)
            for p in part.get("figures") or []]
    return {**part, "figures": figs}


def write_outputs(doc: dict, out_dir: Path) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / JSON_NAME).write_text(json.dumps(doc, indent=1, default=str))
    path = out_dir / REPORT
    path.write_text(report_html.render(doc), encoding="utf-8")
    return path


def run_demo(home: Path, opts: DemoOptions, out_dir: Path, echo: Callable[[str], None], keep: bool = False,
             controller_part: ControllerPart | None = None,
             netns_unavailable: Callable[[], str | None] | None = None) -> dict:
    """The parts asked for, in order; a part that fails is recorded (and the next still runs), the
    report is written either way, and a failure then exits non-zero."""
    asked = opts.network
    opts, network_line = resolve_network(opts, netns_unavailable or network.netns_unavailable)
    check_environment(home, opts)
    run_controller = (controller_part or load_controller_part()) if opts.runs_controller else None
    out_dir.mkdir(parents=True, exist_ok=True)
    started = time.time()
    echo(network_line)
    doc: dict = {"when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                 "machine": f"{platform.node()}, {os.cpu_count()} CPUs", "options": asdict(opts),
                 "network": {"asked": asked, "used": opts.network, "why": network_line}}
    if opts.runs_move:
        echo("part 1: one move, two ways (stock Storm, then nonstop)")
        try:
            doc["move"] = run_move_part(home, opts, out_dir, echo, keep)
        except UserError as e:
            echo(f"part 1 failed: {e}")
            doc["move"] = {"error": str(e)}
    if run_controller is not None:
        echo("part 2: the controller where placement matters (OTD live, then a control run without moves)")
        try:
            got = run_controller(home / "controller", out_dir, echo, port_base=opts.port_base,
                                 warmup_s=opts.warmup_s, phase_s=opts.phase_s, network=opts.network, keep=keep)
            doc["controller"] = relative_figures(got, out_dir)
        except UserError as e:
            echo(f"part 2 failed: {e}")
            doc["controller"] = {"error": str(e)}
    doc["elapsed_s"] = round(time.time() - started)
    path = write_outputs(doc, out_dir)
    for key in ("move", "controller"):
        for line in (doc.get(key) or {}).get("summary_lines") or []:
            echo(line)
    echo(f"report: {path.resolve()}")
    failed = [k for k in ("move", "controller") if (doc.get(k) or {}).get("error")]
    if failed:
        raise UserError(f"the demo's {' and '.join(failed)} part did not complete; see {path.resolve()}")
    return doc
