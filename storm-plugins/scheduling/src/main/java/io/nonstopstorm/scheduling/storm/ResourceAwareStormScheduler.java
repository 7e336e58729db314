package io.nonstopstorm.scheduling.storm;

import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.model.Placement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.storm.metric.StormMetricsRegistry;
import org.apache.storm.scheduler.Cluster;
import org.apache.storm.scheduler.TopologyDetails;
import org.apache.storm.scheduler.resource.ResourceAwareScheduler;
import org.apache.storm.utils.Utils;

/**
 * Hands a topology to Storm's own {@link ResourceAwareScheduler} (R-Storm; the model-driven paper's RSM
 * baseline, docs/seed-specs.md §1.8/§1.10), so it can share a cluster whose {@code storm.scheduler} is the nonstop
 * dispatcher with topologies placed otherwise.
 *
 * <p>Topology conf: {@code nonstop.scheduler: ras} (or {@code resource-aware}), plus Storm's usual resource
 * requests ({@code topology.component.cpu.pcore.percent}, {@code topology.component.resources.onheap.memory.mb},
 * per component or topology-wide; {@code topology.worker.max.heap.size.mb}; {@code topology.scheduler.strategy}).
 * Nodes offer what their supervisors report: {@code supervisor.cpu.capacity} (percent of a core) and
 * {@code supervisor.memory.capacity.mb} (Storm's defaults 400 and 4096). For docs/seed-specs.md §1.10:
 * slots × 100 and slots × the slot memory.
 *
 * <p>Each topology is scheduled on its own {@link TopologySubsetView}: every slot and all the CPU and memory
 * that other topologies' workers hold count as taken. So RAS sees only the one topology and never evicts
 * another (Storm's RAS would evict lower-priority topologies, placed by anyone, to fit a higher one), and
 * only the slots it assigns change. Like Storm's RAS it acts only while executors lack a slot, and a topology
 * that does not fit stays unassigned with RAS's reason in its status ("Not enough resources to schedule ..."),
 * retried every round; the DefaultScheduler takes it only when something fails inside (an exception).
 * Differences from a cluster whose Nimbus runs RAS: Nimbus then sizes ackers and event loggers from RAS's
 * worker estimate at submission (here {@code topology.workers}, as for every topology) and skips the
 * {@code nimbus.slots.perTopology} check.
 */
public class ResourceAwareStormScheduler extends ConfiguredScheduler {

    public static final String NAME = "ras";

    private ResourceAwareScheduler ras;

    public ResourceAwareStormScheduler() {
        super(NAME, Set.of("resource-aware"), false);
    }

    @Override
    public void prepare(Map<String, Object> conf, StormMetricsRegistry metricsRegistry) {
        super.prepare(conf, metricsRegistry);
        // Nimbus's conf holds Storm's defaults; a bare conf (tests, tools) gets them here.
        Map<String, Object> full = new HashMap<>(Utils.readDefaultConfig());
        if (conf != null) {
            full.putAll(conf);
        }
        cleanup();
        ResourceAwareScheduler s = new ResourceAwareScheduler();
        s.prepare(full, metricsRegistry != null ? metricsRegistry : new StormMetricsRegistry());
        ras = s;
    }

    /** Stops RAS's scheduling thread. */
    @Override
    public void cleanup() {
        if (ras != null) {
            ras.cleanup();
            ras = null;
        }
    }

    @Override
    protected Outcome<Step> plan(TopologyDetails td, Cluster cluster) {
        if (cluster.getUnassignedExecutors(td).isEmpty()) {
            return Outcome.success(Step.keep("all executors placed"));
        }
        if (ras == null) {
            return Outcome.failure("the resource-aware scheduler was not prepared");
        }
        TopologySubsetView view = TopologySubsetView.of(cluster, List.of(td));
        ras.schedule(view.topologies(), view.cluster());
        String said = view.cluster().getStatusMap().getOrDefault(td.getId(), "no status");
        if (!view.cluster().getUnassignedExecutors(td).isEmpty()) {
            return Outcome.success(Step.keep("not placed: " + said));
        }
        Placement placed = StormModelMapper.placement(view.cluster(), td.getId());
        return Outcome.success(Step.apply(placed, "resource-aware placement on " + placed.usedSlots().size()
                + " worker(s): " + said));
    }
}
