package io.nonstopstorm.scheduling.core;

/**
 * CPU and memory of a single thread of a component, in fractions of one slot (c̄_i = C_i(1),
 * m̄_i = M_i(1) of the model-driven paper). R-Storm charges every thread this much, whatever rate it sees.
 */
public record ThreadDemand(double cpu, double memory) {

    public ThreadDemand {
        if (cpu < 0 || memory < 0 || Double.isNaN(cpu) || Double.isNaN(memory)) {
            throw new IllegalArgumentException("cpu and memory must be >= 0, got " + cpu + ", " + memory);
        }
    }
}
