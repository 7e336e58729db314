package io.nonstopstorm.migration.reconcile;

import io.nonstopstorm.wire.ExecutorId;
import java.util.Collections;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What a worker must start and stop to go from the executors it runs to the ones it should run.
 * The system executor is never started or stopped: it is part of every worker for its whole life.
 */
public record ExecutorDiff(SortedSet<ExecutorId> toAdd, SortedSet<ExecutorId> toRemove) {

    public ExecutorDiff {
        toAdd = Collections.unmodifiableSortedSet(new TreeSet<>(toAdd));
        toRemove = Collections.unmodifiableSortedSet(new TreeSet<>(toRemove));
    }

    public static ExecutorDiff between(Set<ExecutorId> running, Set<ExecutorId> desired) {
        SortedSet<ExecutorId> add = new TreeSet<>(desired);
        add.removeAll(running);
        SortedSet<ExecutorId> remove = new TreeSet<>(running);
        remove.removeAll(desired);
        add.removeIf(ExecutorId::isSystem);
        remove.removeIf(ExecutorId::isSystem);
        return new ExecutorDiff(add, remove);
    }

    public boolean isEmpty() {
        return toAdd.isEmpty() && toRemove.isEmpty();
    }

    /** Task ids the worker stops hosting. */
    public SortedSet<Integer> removedTasks() {
        return tasksOf(toRemove);
    }

    /** Task ids the worker starts hosting. */
    public SortedSet<Integer> addedTasks() {
        return tasksOf(toAdd);
    }

    private static SortedSet<Integer> tasksOf(Set<ExecutorId> executors) {
        SortedSet<Integer> tasks = new TreeSet<>();
        for (ExecutorId r : executors) {
            // long: an end of Integer.MAX_VALUE must not wrap around and loop forever
            for (long t = r.start(); t <= r.end(); t++) {
                tasks.add((int) t);
            }
        }
        return tasks;
    }

    @Override
    public String toString() {
        return "+" + toAdd + " -" + toRemove;
    }
}
