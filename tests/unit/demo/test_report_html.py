from html.parser import HTMLParser

from pycontrol.demo import report_html

MOVE = {"rate": 300, "after_s": 30, "figures": ["move.png"], "commands": ["./nonstop demo --part move"],
        "summary_lines": ["stock: 0 of the cluster's 7 JVMs loaded the migration agent"],
        "table": [{"way": "stock", "m": 1, "applied": True, "low_s": 4, "longest_gap_s": 3, "latency_max_ms": 2100.0,
                   "latency_p99_ms": 1900.0, "failed": 12, "replayed": 12, "worker_restarts": 2},
                  {"way": "nonstop", "m": 1, "low_s": 0, "longest_gap_s": 0, "latency_max_ms": 80.0,
                   "latency_p99_ms": 41.5, "failed": 0, "replayed": 0, "worker_restarts": 0}]}
CONTROLLER = {"summary_lines": ["OTD did not beat the control"], "figures": ["otd/timeline.png"],
              "commands": ["pycontrol bench otd --control"],
              "comparison": [{"metric": "throughput", "otd_median": 410.0, "otd_spread": 12.0, "control_median": 400.0,
                              "control_spread": 15.0, "change_pct": 2.5, "better": None}],
              "moves": [{"executor": "[3-3]", "from_slot": "127.0.0.11:17101", "to_slot": "127.0.0.12:17121",
                         "reason": "worker 17101 above high_cpu", "ts": 1795772800}]}


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.imgs, self.cells, self.external = [], [], {}, []
        self._table = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append(tag)
        if tag == "img":
            self.imgs.append(a["src"])
        if tag == "table":
            self._table = a.get("id")
            self.cells[self._table] = []
        if tag in ("link", "script") and (a.get("href") or a.get("src")):
            self.external.append(a)

    def handle_data(self, data):
        if self._table and self.tags and self.tags[-1] == "td":
            self.cells[self._table].append(data)


def parse(doc):
    p = Page()
    p.feed(report_html.render(doc))
    return p


def test_the_report_holds_both_parts_figures_tables_moves_and_commands():
    html = report_html.render({"when": "2026-11-27T10:00:00+00:00", "machine": "box, 2 CPUs", "move": MOVE,
                               "controller": CONTROLLER})
    page = parse({"move": MOVE, "controller": CONTROLLER})
    assert page.imgs == ["move.png", "otd/timeline.png"]
    assert page.cells["move-table"][:4] == ["stock", "1", "yes", "4"] and "1900" in html
    assert page.cells["comparison-table"][0] == "throughput"
    assert "worker 17101 above high_cpu" in page.cells["moves-table"]
    assert "./nonstop demo --part move" in html and "pycontrol bench otd --control" in html
    assert "OTD did not beat the control" in html
    assert page.external == []          # self-contained: no CDN, no external script or style


def test_every_value_is_escaped():
    evil = "<script>alert(1)</script>"
    move = {**MOVE, "summary_lines": [evil], "figures": ['x.png" onerror="alert(1)'], "commands": [evil],
            "table": [{**MOVE["table"][0], "way": evil}]}
    ctl = {**CONTROLLER, "moves": [{**CONTROLLER["moves"][0], "reason": evil}]}
    html = report_html.render({"when": evil, "move": move, "controller": ctl})
    assert evil not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert 'onerror="alert' not in html
    assert html.count("<script>") == 1   # the page's own load check only


def test_a_part_that_failed_says_so_and_a_part_not_run_is_left_out():
    html = report_html.render({"move": {"error": "timed out after 300 s waiting for <workers>"}})
    assert "This part did not complete: timed out after 300 s waiting for &lt;workers&gt;" in html
    assert "Part 2" not in html


def test_a_controller_without_moves_says_so():
    assert "The controller made no move." in report_html.render({"controller": {**CONTROLLER, "moves": []}})


def test_the_report_says_which_network_the_nodes_used():
    html = report_html.render({"when": "now", "machine": "m", "network": {
        "asked": "auto", "used": "loopback", "why": "network: loopback (auto: network namespaces need root <CAP>)"}})
    assert "The nodes' network: loopback (auto: network namespaces need root &lt;CAP&gt;)." in html
    assert "network:" not in report_html.render({"when": "now", "machine": "m"})
