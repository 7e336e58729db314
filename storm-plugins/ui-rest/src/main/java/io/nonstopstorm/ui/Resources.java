package io.nonstopstorm.ui;

import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.Constants;

/** Reads the well-known entries of Storm's normalized resource maps (which thrift may leave unset). */
final class Resources {

    private Resources() {
    }

    /** Total memory (MB) a supervisor offers: the normalized name, else the legacy config key. */
    static Double totalMemory(Map<String, Double> total) {
        return firstOf(total, Constants.COMMON_TOTAL_MEMORY_RESOURCE_NAME, Config.SUPERVISOR_MEMORY_CAPACITY_MB);
    }

    /** Total CPU (100 = one core) a supervisor offers: the normalized name, else the legacy config key. */
    static Double totalCpu(Map<String, Double> total) {
        return firstOf(total, Constants.COMMON_CPU_RESOURCE_NAME, Config.SUPERVISOR_CPU_CAPACITY);
    }

    static Double onHeap(Map<String, Double> requested) {
        return requested == null ? null : requested.get(Constants.COMMON_ONHEAP_MEMORY_RESOURCE_NAME);
    }

    static Double offHeap(Map<String, Double> requested) {
        return requested == null ? null : requested.get(Constants.COMMON_OFFHEAP_MEMORY_RESOURCE_NAME);
    }

    static Double cpu(Map<String, Double> requested) {
        return requested == null ? null : requested.get(Constants.COMMON_CPU_RESOURCE_NAME);
    }

    private static Double firstOf(Map<String, Double> map, String key, String fallbackKey) {
        if (map == null) {
            return 0.0;
        }
        Double v = map.get(key);
        if (v == null) {
            v = map.get(fallbackKey);
        }
        return v == null ? 0.0 : v;
    }
}
