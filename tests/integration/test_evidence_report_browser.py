"""The committed evidence report (results/report.html) in headless Chromium: every figure it shows
loads. The page itself has no script; the check opens a copy beside it that carries the demo report's
image-marking script and a <base> pointing at results/, so relative figure paths resolve as in the
original. No cluster needed."""

from __future__ import annotations

import re

from pycontrol.demo.report_html import SCRIPT
from pycontrol.paths import REPO_ROOT
from tests.integration.report_browser import body_attr, check_report

RESULTS = REPO_ROOT / "results"


def test_every_figure_of_the_evidence_report_loads_in_chromium(tmp_path):
    original = (RESULTS / "report.html").read_text()
    srcs = re.findall(r'<img src="([^"]+)"', original)
    assert srcs and "<script" not in original
    missing = [s for s in srcs if not (RESULTS / s).is_file()]
    assert not missing, f"figures the report names but results/ lacks: {missing}"
    page = tmp_path / "report.html"
    page.write_text(original.replace("<head>", f'<head><base href="{RESULTS.as_uri()}/">', 1)
                    .replace("</body>", f"<script>{SCRIPT}</script></body>", 1))
    dom = check_report(page, ())
    assert body_attr(dom, "data-images") == str(len(srcs))
