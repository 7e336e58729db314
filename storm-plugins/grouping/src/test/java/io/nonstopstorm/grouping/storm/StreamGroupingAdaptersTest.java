package io.nonstopstorm.grouping.storm;

import io.nonstopstorm.grouping.core.ConsistentGrouping;
import io.nonstopstorm.grouping.signal.InProcessLoadSignals;
import io.nonstopstorm.grouping.signal.LoadSignal;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.grouping.CustomStreamGrouping;
import org.apache.storm.task.WorkerTopologyContext;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StreamGroupingAdaptersTest {
    private static final GlobalStreamId STREAM = new GlobalStreamId("split", "default");
    private static final List<Integer> TARGETS = List.of(12, 10, 11, 13);
    private static final int SOURCE_TASK = 3;

    @AfterEach
    void forgetChannels() {
        InProcessLoadSignals.clear();
    }

    @Test
    void everyAdapterRoutesOnlyToTargetTasksAndSurvivesJavaSerialisation() throws Exception {
        for (CustomStreamGrouping grouping : List.of(
                new ConsistentGroupingStreamGrouping(List.of("word")),
                new PartialKeyStreamGrouping(List.of("word")),
                new PowerOfTwoChoicesStreamGrouping(),
                new BoundedConsistentHashStreamGrouping(List.of("word")))) {
            CustomStreamGrouping copy = roundTrip(grouping);
            grouping.prepare(context(), STREAM, TARGETS);
            copy.prepare(context(), STREAM, TARGETS);
            Set<Integer> used = new HashSet<>();
            for (int i = 0; i < 2_000; i++) {
                List<Object> tuple = List.of("w" + (i % 97), i);
                List<Integer> chosen = grouping.chooseTasks(SOURCE_TASK, tuple);
                assertEquals(1, chosen.size());
                assertTrue(TARGETS.contains(chosen.get(0)));
                assertEquals(chosen, copy.chooseTasks(SOURCE_TASK, tuple), grouping.getClass().getSimpleName());
                used.add(chosen.get(0));
            }
            assertEquals(4, used.size(), grouping.getClass().getSimpleName() + " must use every target");
        }
    }

    @Test
    void keyFieldsSelectTheKeyAndOtherFieldsDoNotMatter() {
        ConsistentGroupingStreamGrouping a = new ConsistentGroupingStreamGrouping(List.of("word"), 0.2, 4);
        ConsistentGroupingStreamGrouping b = new ConsistentGroupingStreamGrouping(List.of("word"), 0.2, 4);
        a.prepare(context(), STREAM, TARGETS);
        b.prepare(context(), STREAM, TARGETS);
        for (int i = 0; i < 500; i++) {
            String word = "w" + (i * 7 % 31);
            assertEquals(a.chooseTasks(SOURCE_TASK, List.of(word, i)), b.chooseTasks(SOURCE_TASK, List.of(word, -i)));
        }
    }

    @Test
    void workersAreNumberedBySortedTaskIdWhateverTheTargetOrder() {
        PartialKeyStreamGrouping shuffled = new PartialKeyStreamGrouping(List.of("word"));
        PartialKeyStreamGrouping sorted = new PartialKeyStreamGrouping(List.of("word"));
        shuffled.prepare(context(), STREAM, TARGETS);
        sorted.prepare(context(), STREAM, List.of(10, 11, 12, 13));
        for (int i = 0; i < 200; i++) {
            List<Object> tuple = List.of("k" + i, 0);
            assertEquals(sorted.chooseTasks(SOURCE_TASK, tuple), shuffled.chooseTasks(SOURCE_TASK, tuple));
        }
        assertEquals(2, SignalChannels.workerIndex(TARGETS, 12));
        assertThrows(IllegalArgumentException.class, () -> SignalChannels.workerIndex(TARGETS, 99));
    }

    @Test
    void unknownKeyFieldIsAClearError() {
        ConsistentGroupingStreamGrouping grouping = new ConsistentGroupingStreamGrouping(List.of("nope"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> grouping.prepare(context(), STREAM, TARGETS));
        assertTrue(e.getMessage().contains("'nope'"), e.getMessage());
    }

    @Test
    void badProviderClassIsAClearError() {
        ConsistentGroupingStreamGrouping grouping = new ConsistentGroupingStreamGrouping(List.of("word"), 0.2, 4,
                0.7, 0.9, 1_000, "java.lang.String");
        grouping.prepare(context(), STREAM, TARGETS);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> grouping.chooseTasks(SOURCE_TASK, List.of("a", 1)));
        assertTrue(e.getMessage().contains("java.lang.String"), e.getMessage());
    }

    @Test
    void signalsFromAWorkerBoltMoveVirtualWorkersInTheGrouping() {
        long slot = 1_000;
        ConsistentGroupingStreamGrouping grouping = new ConsistentGroupingStreamGrouping(List.of("word"), 0.2, 4,
                0.7, 0.9, slot, InProcessLoadSignals.class.getName());
        grouping.prepare(context(), STREAM, TARGETS);
        // a routing core in lock-step with the grouping predicts every choice (sorted targets 10..13)
        ConsistentGrouping mirror = new ConsistentGrouping(4, 4, 0.2, RoutingStreamGrouping.DEFAULT_SEED);
        int toTask13Before = routeInLockStep(grouping, mirror);

        String channel = SignalChannels.name("split", "default", "count");
        InProcessLoadSignals.Reporter busy = InProcessLoadSignals.reporter(channel, SignalChannels.workerIndex(TARGETS, 10), 0);
        InProcessLoadSignals.Reporter idle = InProcessLoadSignals.reporter(channel, SignalChannels.workerIndex(TARGETS, 13), 0);
        assertEquals(LoadSignal.INCREASE, idle.report(slot, 0.1).orElseThrow());
        assertEquals(LoadSignal.DECREASE, busy.report(slot, 1.5).orElseThrow());
        mirror.onSignal(3, LoadSignal.INCREASE);
        assertEquals(0, mirror.onSignal(0, LoadSignal.DECREASE).orElseThrow().from());

        int toTask13After = routeInLockStep(grouping, mirror);
        assertTrue(toTask13After > toTask13Before, "task 13 took over a VW: " + toTask13Before + " -> " + toTask13After);
    }

    /** Routes 400 tuples through both, asserts equal choices, returns how many went to task 13. */
    private static int routeInLockStep(CustomStreamGrouping grouping, ConsistentGrouping mirror) {
        int toTask13 = 0;
        for (int i = 0; i < 400; i++) {
            String word = "word-" + (i % 150);
            int task = grouping.chooseTasks(SOURCE_TASK, List.of(word, 1)).get(0);
            assertEquals(10 + mirror.route(word), task, "tuple " + i);
            if (task == 13) {
                toTask13++;
            }
        }
        return toTask13;
    }

    private static WorkerTopologyContext context() {
        Map<Integer, String> taskToComponent = new HashMap<>();
        taskToComponent.put(SOURCE_TASK, "split");
        for (int task : TARGETS) {
            taskToComponent.put(task, "count");
        }
        Map<String, List<Integer>> componentTasks = Map.of("split", List.of(SOURCE_TASK), "count", List.of(10, 11, 12, 13));
        Map<String, Map<String, Fields>> fields = Map.of("split", Map.of("default", new Fields("word", "n")),
                "count", Map.of("default", new Fields("word", "count")));
        return new WorkerTopologyContext(new StormTopology(), new HashMap<>(), taskToComponent, componentTasks, fields,
                "topo-1", null, null, 6700, List.of(SOURCE_TASK), new HashMap<>(), new HashMap<>());
    }

    private static CustomStreamGrouping roundTrip(CustomStreamGrouping grouping) throws IOException, ClassNotFoundException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(grouping);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (CustomStreamGrouping) in.readObject();
        }
    }
}
