package io.nonstopstorm.workloads.join;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A symmetric hash join of two streams on a key within a time window: each arriving item is matched
 * against the other side's items of the same key no older than the window, then kept for later
 * arrivals of the other side. Time comes from the caller (milliseconds, non-decreasing), so it is testable.
 * At most {@code maxPerKey} items per key and side are kept (the oldest go first), bounding memory under skew.
 */
public final class WindowJoin {
    public enum Side { LEFT, RIGHT }

    private record Item(long atMs, String payload) {
    }

    private final long windowMs;
    private final int maxPerKey;
    private final Map<String, ArrayDeque<Item>> left = new HashMap<>();
    private final Map<String, ArrayDeque<Item>> right = new HashMap<>();
    private boolean swept;
    private long lastSweepMs;

    public WindowJoin(long windowMs, int maxPerKey) {
        if (windowMs < 1 || maxPerKey < 1) {
            throw new IllegalArgumentException("window and items per key must be >= 1, got " + windowMs + ", " + maxPerKey);
        }
        this.windowMs = windowMs;
        this.maxPerKey = maxPerKey;
    }

    /** Adds an item and returns the other side's payloads it joins with (oldest first). */
    public List<String> add(Side side, String key, String payload, long nowMs) {
        Map<String, ArrayDeque<Item>> mine = side == Side.LEFT ? left : right;
        Map<String, ArrayDeque<Item>> other = side == Side.LEFT ? right : left;
        List<String> matches = new ArrayList<>();
        ArrayDeque<Item> candidates = other.get(key);
        if (candidates != null) {
            expire(candidates, nowMs);
            for (Item i : candidates) {
                matches.add(i.payload());
            }
            if (candidates.isEmpty()) {
                other.remove(key);
            }
        }
        ArrayDeque<Item> kept = mine.computeIfAbsent(key, x -> new ArrayDeque<>());
        expire(kept, nowMs);
        kept.addLast(new Item(nowMs, payload));
        while (kept.size() > maxPerKey) {
            kept.removeFirst();
        }
        if (!swept || nowMs - lastSweepMs >= windowMs) {
            sweep(nowMs);
        }
        return matches;
    }

    /** Items kept on both sides (for tests and sizing). */
    public int size() {
        return left.values().stream().mapToInt(ArrayDeque::size).sum()
            + right.values().stream().mapToInt(ArrayDeque::size).sum();
    }

    private void expire(ArrayDeque<Item> items, long nowMs) {
        while (!items.isEmpty() && nowMs - items.peekFirst().atMs() > windowMs) {
            items.removeFirst();
        }
    }

    /** Drops keys not seen within the window, so keys that stop arriving do not stay for ever. */
    private void sweep(long nowMs) {
        swept = true;
        lastSweepMs = nowMs;
        for (Map<String, ArrayDeque<Item>> m : List.of(left, right)) {
            for (Iterator<ArrayDeque<Item>> it = m.values().iterator(); it.hasNext(); ) {
                ArrayDeque<Item> items = it.next();
                expire(items, nowMs);
                if (items.isEmpty()) {
                    it.remove();
                }
            }
        }
    }
}
