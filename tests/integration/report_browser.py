"""Opening a report in headless Chromium: the DOM after its scripts ran, and a screenshot."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files")


def chromium() -> str:
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        pytest.skip("chromium is not installed (./nonstop setup installs it)")
    return exe


def dump_dom(page: Path, timeout_s: float = 120) -> str:
    p = subprocess.run([chromium(), *FLAGS, "--virtual-time-budget=5000", "--dump-dom", page.resolve().as_uri()],
                       capture_output=True, text=True, timeout=timeout_s)
    assert p.returncode == 0, p.stderr[-2000:]
    return p.stdout


def screenshot(page: Path, png: Path, timeout_s: float = 120) -> Path:
    p = subprocess.run([chromium(), *FLAGS, "--virtual-time-budget=5000", f"--screenshot={png}",
                        "--window-size=1400,1000", page.resolve().as_uri()],
                       capture_output=True, text=True, timeout=timeout_s)
    assert p.returncode == 0 and png.is_file(), p.stderr[-2000:]
    return png


def body_attr(dom: str, name: str) -> str | None:
    m = re.search(r"<body[^>]*\s" + re.escape(name) + r'="([^"]*)"', dom)
    return m.group(1) if m else None


def table_cells(dom: str, table_id: str) -> list[str]:
    m = re.search(r'<table id="' + re.escape(table_id) + r'">(.*?)</table>', dom, re.S)
    assert m, f"no table {table_id} in the page"
    return [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", m.group(1), re.S)]


def check_report(page: Path, tables: tuple[str, ...]) -> str:
    """Every <img> decoded (naturalWidth > 0, counted by the page's own load script), every table
    named has filled cells, and a screenshot is kept beside the report."""
    dom = dump_dom(page)
    total, ok = body_attr(dom, "data-images"), body_attr(dom, "data-images-ok")
    assert total is not None, "the page's load script did not run"
    assert int(total) > 0 and ok == total, f"{ok} of {total} images loaded"
    for t in tables:
        cells = table_cells(dom, t)
        assert cells and all(cells), f"table {t} has empty cells: {cells}"
    screenshot(page, page.with_name("report-screenshot.png"))
    return dom
