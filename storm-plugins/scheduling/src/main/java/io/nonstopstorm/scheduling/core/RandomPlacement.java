package io.nonstopstorm.scheduling.core;

import io.nonstopstorm.scheduling.model.ClusterModel;
import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.Placement;
import io.nonstopstorm.scheduling.model.SlotId;
import io.nonstopstorm.scheduling.model.TopologyModel;
import io.nonstopstorm.wire.ExecutorId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.random.RandomGenerator;

/**
 * The Random baseline of the Elastic Allocator experiment: a topology's workers go to slots drawn
 * uniformly from those it may use (free or its own), and each executor to one of those workers drawn
 * uniformly, with no regard for load or traffic. The randomness is the caller's, so a seed reproduces a
 * placement. Executors already in a usable slot stay there (a re-placement after a lost worker moves
 * nothing that still runs), and their slots count among the topology's workers.
 */
public final class RandomPlacement {

    private RandomPlacement() {
    }

    public static Outcome<Placement> place(TopologyModel topology, ClusterModel cluster, Placement current,
                                           RandomGenerator random) {
        List<SlotId> usable = cluster.usableSlots(topology.id());
        if (usable.isEmpty()) {
            return Outcome.failure("no free slot for " + topology.id());
        }
        Map<ExecutorId, SlotId> out = new TreeMap<>();
        Set<SlotId> workers = new LinkedHashSet<>();
        for (ExecutorId e : topology.executorIds()) {
            current.slotOf(e).filter(usable::contains).ifPresent(s -> {
                out.put(e, s);
                workers.add(s);
            });
        }
        List<SlotId> candidates = new ArrayList<>(usable);
        candidates.removeAll(workers);
        Collections.shuffle(candidates, asRandom(random));
        int wanted = Math.min(usable.size(), Math.max(1, topology.effectiveWorkers()));
        for (SlotId s : candidates) {
            if (workers.size() >= wanted) {
                break;
            }
            workers.add(s);
        }
        List<SlotId> chosen = new ArrayList<>(workers);
        for (ExecutorId e : topology.executorIds()) {
            out.computeIfAbsent(e, x -> chosen.get(random.nextInt(chosen.size())));
        }
        return Outcome.success(Placement.of(out));
    }

    /** Collections.shuffle wants a java.util.Random; this one draws from the caller's generator. */
    private static java.util.Random asRandom(RandomGenerator g) {
        if (g instanceof java.util.Random r) {
            return r;
        }
        return new java.util.Random() {
            @Override
            public int nextInt(int bound) {
                return g.nextInt(bound);
            }
        };
    }
}
