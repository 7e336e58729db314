package org.apache.storm.daemon.worker;

import com.codahale.metrics.Metric;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.metrics2.TaskMetricDimensions;

/**
 * Removes every metric a task registered in the worker's metric registry. Storm never does this (a
 * task lives as long as its worker), but a task that leaves and later comes back to the same worker
 * would otherwise fail on registering a name that already exists.
 */
final class MetricsJanitor {
    private MetricsJanitor() {
    }

    /** @return how many metrics were removed */
    static int purge(StormMetricRegistry registry, String componentId, Collection<Integer> tasks, int port) {
        Set<Metric> owned = new HashSet<>();
        for (int t : tasks) {
            owned.addAll(registry.getTaskGauges(t).values());
            owned.addAll(registry.getTaskMeters(t).values());
            owned.addAll(registry.getTaskCounters(t).values());
            owned.addAll(registry.getTaskTimers(t).values());
            owned.addAll(registry.getTaskHistograms(t).values());
        }
        int before = registry.getRegistry().getMetrics().size();
        registry.deregister(owned);
        // A name registered twice under one task keeps only the last object in Storm's per-task maps;
        // the long name (…​.<component>[.<stream>].<task>.<port>-<name>) still identifies it.
        String comp = Pattern.quote(componentId.replace('.', '_'));
        for (int t : tasks) {
            Pattern p = Pattern.compile("^storm\\.(worker|topology)\\..*\\." + comp + "\\.(?:[^.]*\\.)?" + t + "\\." + port + "-.*");
            registry.getRegistry().removeMatching((name, metric) -> p.matcher(name).matches());
        }
        int removed = before - registry.getRegistry().getMetrics().size();
        for (Map<?, ?> byTask : NonstopInternals.taskMetricMaps(registry)) {
            byTask.keySet().removeAll(tasks);
        }
        NonstopInternals.rateCounters(registry).removeIf(owned::contains);
        NonstopInternals.taskMetrics(registry).keySet()
            .removeIf(d -> tasks.contains(NonstopInternals.taskIdOf((TaskMetricDimensions) d)));
        return removed;
    }

    /** Metric count for one task's long names (diagnostics, tests). */
    static int count(StormMetricRegistry registry, String componentId, int task, int port) {
        String comp = Pattern.quote(componentId.replace('.', '_'));
        Pattern p = Pattern.compile("^storm\\.(worker|topology)\\..*\\." + comp + "\\.(?:[^.]*\\.)?" + task + "\\." + port + "-.*");
        AtomicInteger n = new AtomicInteger();
        registry.getRegistry().getNames().forEach(name -> {
            if (p.matcher(name).matches()) {
                n.incrementAndGet();
            }
        });
        return n.get();
    }
}
