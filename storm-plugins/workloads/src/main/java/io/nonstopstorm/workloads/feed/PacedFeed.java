package io.nonstopstorm.workloads.feed;

import java.util.List;

/**
 * Rate-controlled items for task {@code taskIndex} of {@code tasks}: this task emits the global
 * indices taskIndex, taskIndex + tasks, ... below {@code total} (0 = endless), paced by its share
 * of the topology's rate schedule. The union over tasks is exactly 0 .. total-1.
 */
public final class PacedFeed implements Feed {
    private final ItemMaker maker;
    private final int taskIndex;
    private final int tasks;
    private final long total;
    private Pacer pacer;
    private long taken;

    public PacedFeed(ItemMaker maker, RateSchedule topologySchedule, int taskIndex, int tasks, long total) {
        if (tasks < 1 || taskIndex < 0 || taskIndex >= tasks) {
            throw new IllegalArgumentException("task " + taskIndex + " of " + tasks);
        }
        this.maker = maker;
        this.taskIndex = taskIndex;
        this.tasks = tasks;
        this.total = total;
        this.pacer = new Pacer(topologySchedule.scaled(1.0 / tasks));
    }

    private long nextGlobal() {
        return taskIndex + (long) tasks * taken;
    }

    @Override
    public boolean exhausted() {
        return total > 0 && nextGlobal() >= total;
    }

    @Override
    public double nextTime() {
        return exhausted() ? Double.POSITIVE_INFINITY : pacer.timeOf(taken);
    }

    @Override
    public List<Object> take() {
        List<Object> v = maker.make(nextGlobal());
        taken++;
        return v;
    }

    /** Follows a new topology schedule from time t on (items already due keep their times). */
    public void reschedule(RateSchedule topologySchedule, double t) {
        pacer = pacer.switchTo(topologySchedule.scaled(1.0 / tasks), t);
    }

    @Override
    public double targetRate(double t) {
        return pacer.schedule().rateAt(t);
    }

    public long taken() {
        return taken;
    }
}
