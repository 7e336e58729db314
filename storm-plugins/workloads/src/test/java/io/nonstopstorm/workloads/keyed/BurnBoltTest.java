package io.nonstopstorm.workloads.keyed;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.junit.jupiter.api.Test;

class BurnBoltTest {
    @Test
    void burnsTheAskedCpuTimeOfTheCallingThread() {
        ThreadMXBean t = ManagementFactory.getThreadMXBean();
        long before = t.getCurrentThreadCpuTime();
        BurnBolt.burnCpu(t, 20_000_000L);
        long used = t.getCurrentThreadCpuTime() - before;
        assertTrue(used >= 20_000_000L, "used " + used + " ns");
        assertTrue(used < 60_000_000L, "used " + used + " ns");
    }
}
