package io.nonstopstorm.scheduling.storm;

import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.DefaultScheduler;
import org.apache.storm.scheduler.TopologyDetails;

import java.util.Collection;

/**
 * Runs Storm's {@link DefaultScheduler} for some topologies only: on a {@link TopologySubsetView} (the
 * default schedules every topology of the cluster it gets, and must not see other topologies' slots as
 * free), then copies the result back slot by slot.
 */
public final class DefaultFallback {

    private DefaultFallback() {
    }

    public static void schedule(Cluster cluster, Collection<TopologyDetails> topologies) {
        if (topologies.isEmpty()) {
            return;
        }
        TopologySubsetView view = TopologySubsetView.of(cluster, topologies);
        DefaultScheduler.defaultSchedule(view.topologies(), view.cluster());
        for (TopologyDetails td : topologies) {
            PlacementApplier.apply(cluster, td, StormModelMapper.placement(view.cluster(), td.getId()));
        }
    }
}
