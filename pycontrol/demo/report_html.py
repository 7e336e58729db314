"""report.html from the demo's result document: the figures (PNG files beside it, by relative path),
the tables, the controller's moves with their reasons, and the commands that reproduce each part.
Self-contained (no external CSS, fonts or scripts); every value is HTML-escaped. Pure.

A tiny inline script marks, once the page has loaded, how many images decoded (`data-images-ok` and
`data-images` on <body>, `data-ok` on each <img>), so a headless browser can check the page."""

from __future__ import annotations

from html import escape
from typing import Any

from pycontrol.demo.move_table import COLUMNS as MOVE_COLUMNS

COMPARISON_COLUMNS = (("metric", "metric"), ("otd_median", "OTD median"), ("otd_spread", "OTD spread"),
                      ("control_median", "control median"), ("control_spread", "control spread"),
                      ("change_pct", "change %"), ("better", "OTD better?"))
MOVE_COLUMNS_P2 = (("ts", "time"), ("executor", "executor"), ("from_slot", "from"), ("to_slot", "to"),
                   ("reason", "reason"))

STYLE = """body{font-family:sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:4px 8px;text-align:right}
th{background:#eee}td.text{text-align:left}img{max-width:100%;border:1px solid #ddd}
pre{background:#f4f4f4;padding:0.6em;overflow-x:auto}.error{color:#a00;font-weight:bold}"""

SCRIPT = """window.addEventListener('load',function(){var ims=document.images,ok=0;
for(var i=0;i<ims.length;i++){var good=ims[i].complete&&ims[i].naturalWidth>0;
ims[i].setAttribute('data-ok',good?'1':'0');if(good)ok++;}
document.body.setAttribute('data-images',String(ims.length));
document.body.setAttribute('data-images-ok',String(ok));});"""


def _cell(v: Any) -> str:
    if v is None:
        text = "–"
    elif isinstance(v, bool):
        text = "yes" if v else "no"
    elif isinstance(v, float):
        text = f"{v:.1f}" if abs(v) >= 10 else f"{v:.3g}"
    else:
        text = str(v)
    cls = "" if isinstance(v, (int, float)) and not isinstance(v, bool) else ' class="text"'
    return f"<td{cls}>{escape(text)}</td>"


def _num(v: Any) -> str:
    return f"{v:g}" if isinstance(v, (int, float)) else str(v or "")


def table(rows: list[dict], columns: tuple[tuple[str, str], ...], css_id: str) -> str:
    head = "".join(f"<th>{escape(label)}</th>" for _, label in columns)
    body = "".join("<tr>" + "".join(_cell(r.get(key)) for key, _ in columns) + "</tr>" for r in rows)
    return f'<table id="{escape(css_id)}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _lines(lines: list[str]) -> str:
    return "<ul>" + "".join(f"<li>{escape(str(x))}</li>" for x in lines) + "</ul>" if lines else ""


def _figures(paths: list[str]) -> str:
    return "".join(f'<p><img src="{escape(p, quote=True)}" alt="{escape(p, quote=True)}"></p>' for p in paths)


def _commands(cmds: list[str]) -> str:
    return ("<p>To reproduce:</p><pre>" + escape("\n".join(cmds)) + "</pre>") if cmds else ""


def _part(title: str, intro: str, part: dict | None, body: str) -> str:
    if part is None:
        return ""
    head = f"<h2>{escape(title)}</h2><p>{escape(intro)}</p>"
    if part.get("error"):
        return head + f'<p class="error">This part did not complete: {escape(str(part["error"]))}</p>'
    return head + _lines(part.get("summary_lines") or []) + body + _commands(part.get("commands") or [])


def _network_sentence(network: dict | None) -> str:
    """The nodes' network as the demo chose it ("network: netns (auto: ...)"), or nothing if unrecorded."""
    if not network or not network.get("why"):
        return ""
    return " The nodes' " + escape(str(network["why"])) + "."


def render(doc: dict) -> str:
    """The whole page from the demo's result document (see pycontrol.demo.run_demo)."""
    move, ctl = doc.get("move"), doc.get("controller")
    move_body = ""
    if move and not move.get("error"):
        move_body = (_figures(move.get("figures") or [])
                     + table(move.get("table") or [], MOVE_COLUMNS, "move-table")
                     + f"<p>Window: the {escape(_num(move.get('after_s')))} s after each move; failed and "
                       f"replayed tuples over the whole segment. Offered rate {escape(str(move.get('rate', '')))} "
                       f"sentences/s.</p>")
    ctl_body = ""
    if ctl and not ctl.get("error"):
        ctl_body = (_figures(ctl.get("figures") or [])
                    + table(ctl.get("comparison") or [], COMPARISON_COLUMNS, "comparison-table")
                    + "<h3>Moves and their reasons</h3>"
                    + (table(ctl.get("moves") or [], MOVE_COLUMNS_P2, "moves-table") if ctl.get("moves")
                       else "<p>The controller made no move.</p>"))
    parts = (_part("Part 1: one move, two ways",
                   "The same acked word count at a fixed rate, and the same placement change applied on stock "
                   "Storm (no agent: the supervisors kill and relaunch the workers concerned; then Storm's "
                   "rebalance) and on nonstop (the executors move live between running workers).",
                   move, move_body)
             + _part("Part 2: the controller where placement matters",
                     "Nodes pinned to their own CPUs, an unbalanced default placement: the controller's OTD "
                     "moving executors live against a control run of the same length without moves.",
                     ctl, ctl_body))
    title = "nonstop Storm demo"
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
            f"<style>{STYLE}</style></head><body><h1>{escape(title)}</h1>"
            f"<p>Run {escape(str(doc.get('when', '')))} on {escape(str(doc.get('machine', '')))}."
            f"{_network_sentence(doc.get('network'))}</p>"
            f"{parts}<script>{SCRIPT}</script></body></html>")
