package io.nonstopstorm.scheduling.core;

import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.wire.ExecutorId;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Turns "worker w runs on node n" into concrete slots. A worker keeps the slot that already holds most
 * of its executors (so an unchanged worker is not restarted and a re-run changes nothing); the others
 * take the node's lowest usable ports.
 */
final class PortChoice {

    private PortChoice() {
    }

    /**
     * @param members      executors of each worker
     * @param nodeOfWorker index (in {@code cluster.nodes()}) of each worker's node; the caller guarantees
     *                     no node receives more workers than it has usable slots
     */
    static SlotId[] choose(String topologyId, ClusterModel cluster, Placement current,
                           List<List<ExecutorId>> members, int[] nodeOfWorker) {
        SlotId[] result = new SlotId[members.size()];
        for (int n = 0; n < cluster.nodes().size(); n++) {
            List<SlotId> usable = cluster.usableSlotsOn(cluster.nodes().get(n).id(), topologyId);
            List<Integer> workers = new ArrayList<>();
            for (int w = 0; w < members.size(); w++) {
                if (nodeOfWorker[w] == n && !members.get(w).isEmpty()) {
                    workers.add(w);
                }
            }
            if (workers.isEmpty()) {
                continue;
            }
            record Match(int worker, int slotIndex, int overlap) {
            }
            List<Match> matches = new ArrayList<>();
            for (int w : workers) {
                for (int s = 0; s < usable.size(); s++) {
                    int overlap = 0;
                    for (ExecutorId e : members.get(w)) {
                        if (current.slotOf(e).filter(usable.get(s)::equals).isPresent()) {
                            overlap++;
                        }
                    }
                    if (overlap > 0) {
                        matches.add(new Match(w, s, overlap));
                    }
                }
            }
            matches.sort(Comparator.comparingInt(Match::overlap).reversed()
                    .thenComparingInt(Match::worker).thenComparingInt(Match::slotIndex));
            Set<Integer> takenSlots = new HashSet<>();
            for (Match m : matches) {
                if (result[m.worker()] == null && !takenSlots.contains(m.slotIndex())) {
                    result[m.worker()] = usable.get(m.slotIndex());
                    takenSlots.add(m.slotIndex());
                }
            }
            int next = 0;
            for (int w : workers) {
                if (result[w] != null) {
                    continue;
                }
                while (takenSlots.contains(next)) {
                    next++;
                }
                if (next >= usable.size()) {
                    throw new IllegalStateException("node " + cluster.nodes().get(n).id() + " got more workers than usable slots");
                }
                result[w] = usable.get(next);
                takenSlots.add(next);
            }
        }
        return result;
    }
}
