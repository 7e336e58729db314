package io.nonstopstorm.ui;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The last moves this server has seen, newest first. ZooKeeper keeps only each topology's latest decision, so
 * the page's history of earlier moves lives here, for as long as the server runs. Bounded; a move is its
 * topology id, plan version and executor, so reading the same decision again adds nothing.
 */
public final class MoveLog {

    private static final Comparator<RecordedMoves.Move> NEWEST_FIRST =
        Comparator.comparingLong(RecordedMoves.Move::decidedAtMs).reversed()
            .thenComparing(RecordedMoves.Move::topology).thenComparing(RecordedMoves.Move::executor);

    private final int capacity;
    private final Map<String, RecordedMoves.Move> moves = new LinkedHashMap<>();

    public MoveLog(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a move log holds at least one move, got capacity " + capacity);
        }
        this.capacity = capacity;
    }

    /** Adds the moves not seen yet and returns the log, newest first. */
    public synchronized List<RecordedMoves.Move> record(List<RecordedMoves.Move> seen) {
        for (RecordedMoves.Move m : seen) {
            moves.putIfAbsent(m.topologyId() + "/" + m.planVersion() + "/" + m.executor(), m);
        }
        List<RecordedMoves.Move> sorted = new ArrayList<>(moves.values());
        sorted.sort(NEWEST_FIRST);
        if (sorted.size() > capacity) {
            for (RecordedMoves.Move old : sorted.subList(capacity, sorted.size())) {
                moves.values().remove(old);
            }
            sorted = new ArrayList<>(sorted.subList(0, capacity));
        }
        return sorted;
    }
}
