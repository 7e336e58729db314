"""Sections -> Markdown and self-contained HTML (no scripts, no external styles; figures by relative
path next to the report in results/)."""

from __future__ import annotations

import html

from pycontrol.bench.report.headlines import fmt
from pycontrol.bench.report.model import NOT_RECORDED, Row, Section, Table

PREAMBLE = ("Rebuilt by `pycontrol bench report` from the result JSON files in results/. Each table is one "
            "result file: n counts what its unit says (runs, rounds, instances, moves, tuples); the median is "
            "the single value when n = 1, and the spread is what the file allows (min–max, percentiles, a 95 % "
            "interval). Date, machine load and command are the file's own, \"not recorded\" where it holds none.")
COLUMNS = ("measure", "n", "median", "spread", "note")


def _cells(r: Row) -> tuple[str, ...]:
    n = f"n = {r.n} {r.unit_of_n}" if r.n != 1 else f"n = 1 {r.unit_of_n.removesuffix('s')}"
    return (r.measure, n, fmt(r.median), r.spread, r.note)


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:.0f} min" if seconds < 5400 else f"{seconds / 3600:.1f} h"


def _date_line(t: Table) -> str:
    m = t.meta
    took = _minutes(m.elapsed_s) if m.elapsed_s is not None else NOT_RECORDED
    return f"date {m.date}; machine load at start {m.load_start}, at end {m.load_end}; machine time {took}"


def machine_time(sections: list[Section]) -> str:
    """The machine time the result files record, summed, and how many files do not record it."""
    tables = [t for s in sections for t in s.tables]
    known = [t.meta.elapsed_s for t in tables if t.meta.elapsed_s is not None]
    return (f"Machine time recorded by the result files: {_minutes(sum(known))} over {len(known)} of the "
            f"{len(tables)} files; the other {len(tables) - len(known)} do not record how long they ran.")


UNREAD_ABOUT = ("Result files in results/ that no section reads (raw series, per-point files of a sweep, or "
                "results of a kind the report has no extractor for):")


def markdown(sections: list[Section], unread: list[str] = (), title: str = "Evidence report") -> str:
    out = [f"# {title}", "", PREAMBLE, "", machine_time(sections), ""]
    for s in sections:
        out += [f"## {s.headline}", "", s.about, ""]
        for t in s.tables:
            out += [f"### `{t.source}`", ""]
            out += [f"- {_date_line(t)}", f"- command: `{t.meta.command}`", ""]
            if t.note:
                out += [f"**{t.note}**", ""]
            if t.rows:
                out += ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
                out += ["| " + " | ".join(c.replace("|", "\\|") for c in _cells(r)) + " |" for r in t.rows]
                out.append("")
        for f in s.figures:
            out += [f"![{f}]({f})", ""]
    if unread:
        out += ["## Not summarised here", "", UNREAD_ABOUT, "", *[f"- `{p}`" for p in unread], ""]
    return "\n".join(out).rstrip() + "\n"


STYLE = ("body{font-family:sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}"
         "table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:.25em .5em;"
         "text-align:left;vertical-align:top;font-size:.9em}th{background:#f0f0f0}code{background:#f6f6f6}"
         "img{max-width:100%;border:1px solid #ddd;margin:.5em 0}.meta{color:#555;font-size:.9em}"
         ".bad{color:#a00;font-weight:bold}")


def page(sections: list[Section], unread: list[str] = (), title: str = "Evidence report") -> str:
    e = html.escape
    out = ["<!DOCTYPE html>", "<html lang=\"en\"><head><meta charset=\"utf-8\">", f"<title>{e(title)}</title>",
           f"<style>{STYLE}</style></head><body>", f"<h1>{e(title)}</h1>", f"<p>{e(PREAMBLE)}</p>",
           f"<p>{e(machine_time(sections))}</p>"]
    for s in sections:
        out += [f"<h2>{e(s.headline)}</h2>", f"<p>{e(s.about)}</p>"]
        for t in s.tables:
            out += [f"<h3><code>{e(t.source)}</code></h3>",
                    f"<p class=\"meta\">{e(_date_line(t))}<br>command: <code>{e(t.meta.command)}</code></p>"]
            if t.note:
                out.append(f"<p class=\"bad\">{e(t.note)}</p>")
            if t.rows:
                out.append("<table><tr>" + "".join(f"<th>{c}</th>" for c in COLUMNS) + "</tr>")
                out += ["<tr>" + "".join(f"<td>{e(c)}</td>" for c in _cells(r)) + "</tr>" for r in t.rows]
                out.append("</table>")
        for f in s.figures:
            out.append(f"<figure><img src=\"{e(f, quote=True)}\" alt=\"{e(f)}\"><figcaption>{e(f)}</figcaption></figure>")
    if unread:
        out += ["<h2>Not summarised here</h2>", f"<p>{e(UNREAD_ABOUT)}</p>", "<ul>",
                *[f"<li><code>{e(p)}</code></li>" for p in unread], "</ul>"]
    out.append("</body></html>")
    return "\n".join(out) + "\n"
