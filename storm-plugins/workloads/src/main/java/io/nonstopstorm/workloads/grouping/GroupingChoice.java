package io.nonstopstorm.workloads.grouping;

import io.nonstopstorm.grouping.core.GroupingDefaults;
import io.nonstopstorm.grouping.signal.NoLoadSignals;
import io.nonstopstorm.grouping.storm.BoundedConsistentHashStreamGrouping;
import io.nonstopstorm.grouping.storm.ConsistentGroupingStreamGrouping;
import io.nonstopstorm.grouping.storm.MetricsPlaneLoadSignals;
import io.nonstopstorm.grouping.storm.PartialKeyStreamGrouping;
import io.nonstopstorm.grouping.storm.PowerOfTwoChoicesStreamGrouping;
import io.nonstopstorm.workloads.Params;
import java.util.List;
import java.util.Locale;
import org.apache.storm.topology.BoltDeclarer;
import org.apache.storm.tuple.Fields;

/**
 * The stream grouping of the experiment's keyed edge, by name (workload.grouping): kg and sg are Storm's
 * fields and shuffle groupings; pkg, potc, ch and cg are the grouping module's. CG takes workload.cg.*:
 * epsilon, vws (virtual workers per worker), idle, busy (delegation thresholds on the workers' busy
 * fraction), slot.ms (time slot), signals (metrics: the metrics-plane path; none: no signals, i.e. PoRC
 * over an even VW table).
 */
public enum GroupingChoice {
    KG, SG, PKG, POTC, CH, CG;

    public static GroupingChoice parse(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("workload.grouping must be one of kg, sg, pkg, potc, ch, cg; got '" + name + "'");
        }
    }

    /** Subscribes {@code bolt} to {@code source} with this grouping on {@code keyField}. */
    public void apply(BoltDeclarer bolt, String source, String keyField, Params p) {
        List<String> key = List.of(keyField);
        switch (this) {
            case KG -> bolt.fieldsGrouping(source, new Fields(keyField));
            case SG -> bolt.shuffleGrouping(source);
            case PKG -> bolt.customGrouping(source, new PartialKeyStreamGrouping(key));
            case POTC -> bolt.customGrouping(source, new PowerOfTwoChoicesStreamGrouping());
            case CH -> bolt.customGrouping(source, new BoundedConsistentHashStreamGrouping(key,
                p.doubleAtLeast("workload.cg.epsilon", GroupingDefaults.EPSILON, 0.0),
                p.intAtLeast("workload.ch.copies", GroupingDefaults.RING_COPIES_PER_WORKER, 1)));
            case CG -> bolt.customGrouping(source, consistentGrouping(key, p));
            default -> throw new IllegalStateException(name());
        }
    }

    static ConsistentGroupingStreamGrouping consistentGrouping(List<String> key, Params p) {
        String signals = p.stringValue("workload.cg.signals", "metrics");
        String provider = switch (signals) {
            case "metrics" -> MetricsPlaneLoadSignals.class.getName();
            case "none" -> NoLoadSignals.class.getName();
            default -> throw new IllegalArgumentException("workload.cg.signals must be metrics or none, got '" + signals + "'");
        };
        return new ConsistentGroupingStreamGrouping(key,
            p.doubleAtLeast("workload.cg.epsilon", GroupingDefaults.EPSILON, 0.0),
            p.intAtLeast("workload.cg.vws", GroupingDefaults.VIRTUAL_WORKERS_PER_WORKER, 1),
            p.doubleAtLeast("workload.cg.idle", GroupingDefaults.IDLE_BELOW, 0.0),
            p.doubleAtLeast("workload.cg.busy", GroupingDefaults.BUSY_ABOVE, 0.0),
            p.longValue("workload.cg.slot.ms", GroupingDefaults.TIME_SLOT_MILLIS),
            provider);
    }
}
