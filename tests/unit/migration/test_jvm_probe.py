"""The leak probes: live heap per class from jcmd's GC.class_histogram, thread counts."""

import os
import shutil
import subprocess
import sys
import threading

import pytest

from pycontrol.errors import UserError
from pycontrol.migration.jvm import class_histogram, histogram_growth, live_kb, parse_class_histogram, thread_count

def test_thread_count_sees_a_new_thread():
    stop = threading.Event()
    before = thread_count(os.getpid())
    t = threading.Thread(target=stop.wait)
    t.start()
    try:
        assert thread_count(os.getpid()) == before + 1
    finally:
        stop.set()
        t.join()
    with pytest.raises(UserError, match="is gone"):
        thread_count(2 ** 22 + 12345)


HOLDER = """
public class Hold {
    public static void main(String[] a) throws Exception {
        byte[][] kept = new byte[Integer.parseInt(a[0])][];
        for (int i = 0; i < kept.length; i++) kept[i] = new byte[1 << 20];
        for (int i = 0; i < 64; i++) { byte[] garbage = new byte[1 << 20]; garbage[0] = 1; }
        System.out.println("ready");
        Thread.sleep(120_000);
        System.out.println(kept.length);
    }
}
"""


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("jcmd") is None, reason="needs a JDK")
def test_live_heap_counts_what_is_held_not_the_garbage(tmp_path):
    """Two JVMs that differ only in 24 MiB held (both made 64 MiB of garbage): the probe sees the 24 MiB."""
    src = tmp_path / "Hold.java"
    src.write_text(HOLDER)
    procs = []
    try:
        for held in (0, 24):
            p = subprocess.Popen(["java", "-Xmx128m", "-XX:+UseSerialGC", str(src), str(held)],
                                 stdout=subprocess.PIPE, text=True)
            procs.append(p)
        for p in procs:
            assert p.stdout.readline().strip() == "ready"
        small, big = (live_kb(class_histogram(p.pid)) for p in procs)
        print("live heap KiB:", small, big, file=sys.stderr)
        assert 23 * 1024 <= big - small <= 25 * 1024
    finally:
        for p in procs:
            p.kill()
            p.wait()


HISTOGRAM = """15695:
 num     #instances         #bytes  class name (module)
-------------------------------------------------------
   1:          8682        4605376  [B (java.base@17.0.15)
   2:          2557         305472  java.lang.Class (java.base@17.0.15)
   3:             4           4096  org.example.Twice
   4:             1           1024  org.example.Twice
Total         11244        4915968
"""


def test_histogram_lines_are_read_and_a_class_of_two_loaders_is_summed():
    h = parse_class_histogram(HISTOGRAM)
    assert h == {"[B": (8682, 4605376), "java.lang.Class": (2557, 305472), "org.example.Twice": (5, 5120)}
    assert live_kb(h) == (4605376 + 305472 + 5120) // 1024
    with pytest.raises(UserError, match="no classes found"):
        parse_class_histogram("15695:\n num #instances #bytes class name\n")


def test_growth_names_the_classes_that_grew_most_first():
    before = {"a": (10, 1000), "b": (5, 500), "c": (1, 100)}
    after = {"a": (10, 1000), "b": (9, 900), "c": (0, 0), "d": (3, 3000)}
    assert histogram_growth(before, after) == [("d", 3, 3000), ("b", 4, 400)]
    assert histogram_growth(before, after, top=1) == [("d", 3, 3000)]
