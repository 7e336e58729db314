package io.nonstopstorm.metrics.cpu;

import java.util.List;

/** The live threads of this JVM with their CPU time; an interface so samplers can be tested with fakes. */
public interface ThreadSource {
    /** @param cpuNanos CPU time of the thread so far, or -1 if the JVM cannot tell */
    record ThreadReading(long id, String name, long cpuNanos) {
    }

    List<ThreadReading> threads();
}
