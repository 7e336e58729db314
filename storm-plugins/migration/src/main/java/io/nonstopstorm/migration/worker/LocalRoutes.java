package io.nonstopstorm.migration.worker;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * An executor's view of the receive queues local to its worker: a dense array indexed by
 * {@code taskId - base}, plus the queues it has published to and must still flush. Storm builds it
 * once per executor; after a migration it is rebuilt from the worker's current task-to-queue map.
 *
 * @param queues   queue per task id, {@code null} where the task is not local
 * @param base     task id of index 0
 * @param toFlush  same indexing as {@code queues}: queues published to since the last flush
 * @param orphaned queues that still had unflushed publishes but are no longer local (flush them once)
 */
public record LocalRoutes<Q>(ArrayList<Q> queues, int base, AtomicReferenceArray<Q> toFlush, List<Q> orphaned) {

    /**
     * @param local      task id to receive queue, for every task now local to the worker
     * @param oldQueues  the executor's current array (null if it has none yet)
     * @param oldBase    its base
     * @param oldToFlush its pending flushes (null if none)
     */
    public static <Q> LocalRoutes<Q> rebuild(Map<Integer, Q> local, List<Q> oldQueues, int oldBase,
                                             AtomicReferenceArray<Q> oldToFlush) {
        // The worker's map changes while this runs on an executor thread (a re-deployment registers the
        // next executors' tasks while the first ones already send): size and fill from one snapshot, or
        // a task added in between lands outside the array.
        Map<Integer, Q> snapshot = new HashMap<>(local);
        if (snapshot.isEmpty()) {
            return new LocalRoutes<>(new ArrayList<>(), 0, new AtomicReferenceArray<>(0), List.of());
        }
        int min = Integer.MAX_VALUE;
        int max = Integer.MIN_VALUE;
        for (Integer t : snapshot.keySet()) {
            min = Math.min(min, t);
            max = Math.max(max, t);
        }
        ArrayList<Q> queues = new ArrayList<>(Collections.nCopies(max - min + 1, null));
        for (Map.Entry<Integer, Q> e : snapshot.entrySet()) {
            queues.set(e.getKey() - min, e.getValue());
        }
        AtomicReferenceArray<Q> toFlush = new AtomicReferenceArray<>(queues.size());
        List<Q> orphaned = new ArrayList<>();
        if (oldToFlush != null) {
            for (int i = 0; i < oldToFlush.length(); i++) {
                Q q = oldToFlush.get(i);
                if (q == null) {
                    continue;
                }
                int idx = i + oldBase - min;
                if (idx >= 0 && idx < queues.size() && queues.get(idx) == q) {
                    toFlush.set(idx, q);
                } else if (!orphaned.contains(q)) {
                    orphaned.add(q);
                }
            }
        }
        return new LocalRoutes<>(queues, min, toFlush, orphaned);
    }
}
