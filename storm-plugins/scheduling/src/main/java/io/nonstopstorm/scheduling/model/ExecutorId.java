package io.nonstopstorm.scheduling.model;

/**
 * An executor as Storm names it: the inclusive task range {@code [startTask, endTask]}.
 */
public record ExecutorId(int startTask, int endTask) implements Comparable<ExecutorId> {

    public ExecutorId {
        if (endTask < startTask) {
            throw new IllegalArgumentException("executor task range is empty: [" + startTask + "," + endTask + "]");
        }
    }

    /** An executor running exactly one task. */
    public static ExecutorId ofTask(int task) {
        return new ExecutorId(task, task);
    }

    @Override
    public int compareTo(ExecutorId o) {
        int c = Integer.compare(startTask, o.startTask);
        return c != 0 ? c : Integer.compare(endTask, o.endTask);
    }

    @Override
    public String toString() {
        return "[" + startTask + "," + endTask + "]";
    }
}
