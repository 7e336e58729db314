from pycontrol.workloads import live_status as live
from tests.unit.demo.test_move_table import sec


def test_a_status_line_averages_the_last_complete_seconds():
    rows = [sec(ts, 300 if ts < 98 else 0, p99=40.0 if ts != 96 else 85.0) for ts in range(80, 100)]
    # now 100: complete seconds are those before 98; the line covers 93..97
    line = live.status_line("stock M=1: after the move", 23.4, rows, 100.2)
    assert line == "[stock M=1: after the move]  23 s left | acked 300/s | latency p99 85 ms"


def test_a_status_line_says_when_there_is_nothing_to_show():
    assert live.status_line("p", 5, [], 100).endswith("| no series yet")
    assert live.status_line("p", 5, [sec(ts, 0) for ts in range(90, 100)], 100).endswith("| acked 0/s | no acks")


def test_watch_prints_every_few_seconds_until_the_deadline():
    now = [1000.0]
    lines = []

    def sleep(s):
        now[0] += s

    live.watch("phase", 1012, lambda: [], lines.append, every_s=5, clock=lambda: now[0], sleep=sleep)
    assert now[0] == 1012
    assert [line.split("]")[1].split("|")[0].strip() for line in lines] == ["12 s left", "7 s left", "2 s left"]


def test_watch_ends_early_once_told_to_stop():
    import threading
    now, lines, stop = [1000.0], [], threading.Event()

    def sleep(s):
        now[0] += s
        if now[0] >= 1006:
            stop.set()

    live.watch("phase", 1060, lambda: [], lines.append, every_s=5, clock=lambda: now[0], sleep=sleep, stop=stop)
    assert 1006 <= now[0] < 1008 and len(lines) == 2


def test_throttled_lines_come_at_most_every_few_seconds():
    now, lines = [100.0], []
    t = live.Throttled("stock: warming up", lines.append, every_s=5, clock=lambda: now[0])
    for _ in range(6):          # a poll every 2 s: lines at 100, 106 (>= 105), and not in between
        t([], 600 - now[0])
        now[0] += 2
    assert len(lines) == 2 and lines[0].startswith("[stock: warming up] 500 s left")
