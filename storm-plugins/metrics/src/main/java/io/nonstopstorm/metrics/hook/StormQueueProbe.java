package io.nonstopstorm.metrics.hook;

import java.lang.reflect.Field;
import java.util.Map;
import io.nonstopstorm.metrics.core.QueueLevel;
import io.nonstopstorm.metrics.core.QueueProbe;
import io.nonstopstorm.wire.ExecutorId;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.task.TopologyContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Receive-queue levels from the gauges Storm registers per task for each executor's JCQueue
 * ("receive-queue-population", "-overflow", "-capacity"). The registry is a private field of
 * TopologyContext (read by reflection); if that changes, queue levels are simply absent.
 */
public final class StormQueueProbe implements QueueProbe {
    private static final Logger LOG = LoggerFactory.getLogger(StormQueueProbe.class);
    private final StormMetricRegistry registry;

    private StormQueueProbe(StormMetricRegistry registry) {
        this.registry = registry;
    }

    public static QueueProbe from(TopologyContext context) {
        try {
            Field f = TopologyContext.class.getDeclaredField("metricRegistry");
            f.setAccessible(true);
            StormMetricRegistry r = (StormMetricRegistry) f.get(context);
            if (r != null) {
                return new StormQueueProbe(r);
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn("receive-queue levels unavailable: {}", e.toString());
        }
        return executor -> null;
    }

    @Override
    @SuppressWarnings("rawtypes")
    public QueueLevel level(ExecutorId executor) {
        Map<String, com.codahale.metrics.Gauge> gauges = registry.getTaskGauges(executor.start());
        if (gauges == null) {
            return null;
        }
        Integer population = intGauge(gauges.get("receive-queue-population"));
        Integer capacity = intGauge(gauges.get("receive-queue-capacity"));
        if (population == null || capacity == null) {
            return null;
        }
        Integer overflow = intGauge(gauges.get("receive-queue-overflow"));
        return new QueueLevel(population + (overflow == null ? 0 : overflow), capacity);
    }

    @SuppressWarnings("rawtypes")
    private static Integer intGauge(com.codahale.metrics.Gauge g) {
        if (g == null) {
            return null;
        }
        Object v = g.getValue();
        return v instanceof Number n ? n.intValue() : null;
    }
}
