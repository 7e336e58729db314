package io.nonstopstorm.metrics.core;

import java.util.ArrayList;
import java.util.List;

/** An executor as Storm names it: the inclusive range of task ids it runs. */
public record ExecutorId(int start, int end) implements Comparable<ExecutorId> {
    public ExecutorId {
        if (end < start) {
            throw new IllegalArgumentException("executor range [" + start + ", " + end + "] is empty");
        }
    }

    public static ExecutorId single(int task) {
        return new ExecutorId(task, task);
    }

    public boolean contains(int task) {
        return task >= start && task <= end;
    }

    public List<Integer> tasks() {
        List<Integer> out = new ArrayList<>();
        // long: an end of Integer.MAX_VALUE must not wrap around and loop forever
        for (long t = start; t <= end; t++) {
            out.add((int) t);
        }
        return out;
    }

    @Override
    public int compareTo(ExecutorId o) {
        return start != o.start ? Integer.compare(start, o.start) : Integer.compare(end, o.end);
    }

    @Override
    public String toString() {
        return "[" + start + ", " + end + "]";
    }
}
