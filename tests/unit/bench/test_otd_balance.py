"""The ceiling placement: one component spread evenly over nodes, with the fewest moves."""

from collections import Counter

from pycontrol.bench.otd.balance import balanced_moves
from pycontrol.wire.executor import ExecutorId
from pycontrol.storm.placement import ExecutorPlace

N1, N2 = "127.0.0.11", "127.0.0.12"


def _demo_default():
    """Storm's even spread of the demo: node1 one worker, node2 three; 8 splits, 2 per worker."""
    workers = [(N1, 17101), (N2, 17121), (N2, 17122), (N2, 17123)]
    places = [ExecutorPlace("split", ExecutorId(i, i), *workers[(i - 5) % 4]) for i in range(5, 13)]
    places += [ExecutorPlace("count", ExecutorId(i, i), *workers[i % 4]) for i in range(1, 5)]
    return places


def test_the_demo_default_needs_two_moves_off_node2_into_node1s_worker():
    places = _demo_default()
    moves = balanced_moves(places, "split")
    assert len(moves) == 2
    assert set(moves.values()) == {(N1, 17101)}
    after = {p.executor: moves.get(p.executor, (p.host, p.port)) for p in places if p.component == "split"}
    assert Counter(h for h, _ in after.values()) == {N1: 4, N2: 4}
    # Taken from two different workers of node2, not both from one.
    sources = [next((p.host, p.port) for p in places if p.executor == e) for e in moves]
    assert len(set(sources)) == 2


def test_already_balanced_or_absent_means_no_move():
    places = [ExecutorPlace("split", ExecutorId(1, 1), N1, 1), ExecutorPlace("split", ExecutorId(2, 2), N2, 2),
              ExecutorPlace("split", ExecutorId(3, 3), N2, 3)]
    assert balanced_moves(places, "split") == {}
    assert balanced_moves(places, "count") == {}


def test_deterministic_and_other_components_untouched():
    places = _demo_default()
    assert balanced_moves(places, "split") == balanced_moves(list(reversed(places)), "split")
    assert all(e.start >= 5 for e in balanced_moves(places, "split"))
