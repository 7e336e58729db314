package io.nonstopstorm.workloads;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import io.nonstopstorm.workloads.grouping.GroupingCountWorkload;
import io.nonstopstorm.workloads.join.JoinWorkload;
import io.nonstopstorm.workloads.keyed.KeyedWorkload;
import io.nonstopstorm.workloads.linear.LinearWorkload;
import io.nonstopstorm.workloads.multilang.MultilangWorkload;
import io.nonstopstorm.workloads.relay.RelayWorkload;
import io.nonstopstorm.workloads.state.StateSizeWorkload;
import io.nonstopstorm.workloads.topk.TopKWorkload;
import io.nonstopstorm.workloads.wordcount.WordCountWorkload;

/** The registry of workloads by name: the one place a new topology is made submittable. */
public final class Workloads {
    private static final List<Workload> ALL = List.of(new RelayWorkload(), new WordCountWorkload(false),
        new WordCountWorkload(true), new LinearWorkload(), new MultilangWorkload(), new KeyedWorkload(),
        new GroupingCountWorkload(), new TopKWorkload(), new JoinWorkload(), new StateSizeWorkload());

    private Workloads() {
    }

    public static Optional<Workload> byName(String name) {
        return ALL.stream().filter(w -> w.name().equals(name)).findFirst();
    }

    public static Map<String, String> descriptions() {
        Map<String, String> out = new TreeMap<>();
        for (Workload w : ALL) {
            out.put(w.name(), w.description());
        }
        return out;
    }
}
