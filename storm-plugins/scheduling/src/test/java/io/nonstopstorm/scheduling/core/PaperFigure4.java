package io.nonstopstorm.scheduling.core;

import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.ComponentGraph;
import io.nonstopstorm.scheduling.model.Node;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.wire.ExecutorId;

import java.util.List;
import java.util.Map;

/**
 * The sample of Shukla &amp; Simmhan Fig. 4: tasks Blue, Orange, Yellow, Green with 5, 4, 3, 5 threads on
 * 3 VMs × 2 slots, slot order s11, s12, s21, s22, s31, s32. Thread X_k is the k-th executor of X.
 */
final class PaperFigure4 {

    static final TopologyModel TOPOLOGY = TopologyModel.withParallelism("fig4",
            ComponentGraph.chain("B", "O", "Y", "G"), Map.of("B", 5, "O", 4, "Y", 3, "G", 5), 6);

    static final ClusterModel CLUSTER = ClusterModel.of(List.of(
            Node.of("v1", List.of(1, 2)), Node.of("v2", List.of(1, 2)), Node.of("v3", List.of(1, 2))));

    private PaperFigure4() {
    }

    /** Thread {@code k} (1-based) of task {@code task}. */
    static ExecutorId thread(String task, int k) {
        return TOPOLOGY.executorsOf(task).get(k - 1);
    }

    /** Slot s_vm^l of the paper. */
    static SlotId slot(int vm, int l) {
        return new SlotId("v" + vm, l);
    }
}
