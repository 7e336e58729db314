package io.nonstopstorm.grouping.signal;

import io.nonstopstorm.grouping.core.ConsistentGrouping;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LoadReportDelegationTest {
    private static final long SLOT = 10_000;
    private static final long GRACE = 5_000;
    private static final DelegationPolicy POLICY = new DelegationPolicy(0.7, 0.9, SLOT);
    private static final List<Integer> TASKS = List.of(4, 5, 6);

    /** A 2 s window with a steady queue, so its utilisation is {@code busy}; seq follows from the end time. */
    private static TaskLoad window(int task, long endMs, double busy) {
        return new TaskLoad(task, 100 + task, endMs / 2_000, endMs, 2.0, busy, 200, 0);
    }

    /** The window ending at {@code endMs} and the one before it (utilisation needs both). */
    private static List<TaskLoad> report(int task, long endMs, double busy) {
        return List.of(window(task, endMs - 2_000, 0.8), window(task, endMs, busy));
    }

    @SafeVarargs
    private static List<TaskLoad> all(List<TaskLoad>... reports) {
        return java.util.Arrays.stream(reports).flatMap(List::stream).toList();
    }

    @Test
    void aSlotIsReleasedInWorkerOrderOnceEveryWorkerReportedPastItsStart() {
        LoadReportDelegation d = new LoadReportDelegation(POLICY, TASKS, GRACE);
        // slot 1 starts at 10 000; tasks 6 and 4 report their deciding windows, task 5 not yet
        assertEquals(List.of(), d.observe(all(report(6, 10_500, 0.95), report(4, 11_000, 0.2)), 11_000));
        assertEquals(2, d.pendingSignals());
        List<WorkerSignal> released = d.observe(report(5, 10_200, 0.8), 11_100);
        assertEquals(List.of(new WorkerSignal(0, LoadSignal.INCREASE), new WorkerSignal(2, LoadSignal.DECREASE)), released);
    }

    @Test
    void aSilentWorkerHoldsASlotBackOnlyForTheGracePeriod() {
        LoadReportDelegation d = new LoadReportDelegation(POLICY, TASKS, GRACE);
        assertEquals(List.of(), d.observe(report(4, 10_500, 0.95), 12_000));
        assertEquals(List.of(new WorkerSignal(0, LoadSignal.DECREASE)), d.observe(List.of(), 10_000 + GRACE));
    }

    @Test
    void aWindowReadAgainOrFromASecondProcessSignalsOncePerSlot() {
        LoadReportDelegation d = new LoadReportDelegation(POLICY, List.of(4), GRACE);
        assertEquals(1, d.observe(report(4, 10_500, 0.95), 10_600).size());
        assertEquals(0, d.observe(report(4, 10_500, 0.95), 10_700).size(), "same documents polled again");
        assertEquals(0, d.observe(List.of(new TaskLoad(4, 999, 4, 9_000, 2.0, 0.99, 200, 0),
                new TaskLoad(4, 999, 5, 11_000, 2.0, 0.99, 200, 0)), 11_100).size(),
                "the task reported by another process in the same slot");
        assertEquals(1, d.observe(report(4, 20_100, 0.95), 20_200).size(), "next slot");
        assertEquals(0, d.observe(report(4, 25_000, 0.99), 25_100).size(), "mid-slot windows never decide");
        assertEquals(0, d.observe(List.of(window(4, 30_100, 0.99)), 30_200).size(),
                "the window before was missed: utilisation unknown");
    }

    @Test
    void aDecidingWindowReadAfterItsSlotWasReleasedIsHandedOutAtOnceAndForeignTasksAreIgnored() {
        LoadReportDelegation d = new LoadReportDelegation(POLICY, TASKS, GRACE);
        assertEquals(List.of(), d.observe(all(report(4, 10_100, 0.95), report(6, 10_300, 0.8), report(42, 10_100, 0.1)),
                10_400));
        assertEquals(List.of(new WorkerSignal(0, LoadSignal.DECREASE)), d.observe(List.of(), 10_000 + GRACE),
                "task 5 is silent: slot 1 goes out after the grace period");
        assertEquals(List.of(new WorkerSignal(1, LoadSignal.INCREASE)), d.observe(report(5, 10_400, 0.2), 15_100),
                "task 5's slot-1 window, read late, at once");
        // slot 2 waits for every task again
        assertEquals(List.of(), d.observe(report(4, 20_100, 0.1), 20_200));
        assertEquals(List.of(new WorkerSignal(0, LoadSignal.INCREASE), new WorkerSignal(1, LoadSignal.INCREASE)),
                d.observe(all(report(5, 20_400, 0.3), report(6, 20_300, 0.8)), 20_500));
    }

    /**
     * Sources reading the same published windows at different moments and in different orders release the
     * same signals in the same order, so CG routers fed from them keep identical tables.
     */
    @Test
    void sourcesPollingAtDifferentTimesAgreeOnEverySignalAndTheirTables() {
        Random random = new Random(7);
        List<TaskLoad> published = new ArrayList<>();
        for (long end = 2_000; end <= 200_000; end += 2_000) {
            for (int task : TASKS) {
                double busy = task == 4 ? 0.97 : task == 5 ? 0.5 : 0.3 + 0.7 * random.nextDouble();
                // workers' windows are not aligned; seq = end / 2 000 keeps them consecutive per task
                published.add(window(task, end + random.nextInt(500), busy));
            }
        }
        List<WorkerSignal> a = replay(published, new Random(1));
        List<WorkerSignal> b = replay(published, new Random(2));
        assertEquals(a, b);
        assertTrue(a.size() > 20, "signals: " + a.size());
        ConsistentGrouping ra = new ConsistentGrouping(3, 5, 0.2, 11);
        ConsistentGrouping rb = new ConsistentGrouping(3, 5, 0.2, 11);
        a.forEach(ra::onSignal);
        b.forEach(rb::onSignal);
        for (int vw = 0; vw < ra.virtualWorkers(); vw++) {
            assertEquals(ra.table().ownerOf(vw), rb.table().ownerOf(vw));
        }
        assertEquals(1, ra.virtualWorkersOf(0), "the always-busy worker gave up all but its last VW");
    }

    /** One source: reads what has been published up to each poll time, shuffled, with repeats. */
    private static List<WorkerSignal> replay(List<TaskLoad> published, Random random) {
        LoadReportDelegation d = new LoadReportDelegation(POLICY, TASKS, GRACE);
        List<WorkerSignal> out = new ArrayList<>();
        long now = 0;
        while (now < 220_000) {
            now += 300 + random.nextInt(1_500);
            long until = now;
            List<TaskLoad> visible = new ArrayList<>(published.stream()
                    .filter(r -> r.windowEndMs() <= until && r.windowEndMs() > until - 3_000).toList());
            Collections.shuffle(visible, random);
            out.addAll(d.observe(visible, now));
        }
        return out;
    }
}
