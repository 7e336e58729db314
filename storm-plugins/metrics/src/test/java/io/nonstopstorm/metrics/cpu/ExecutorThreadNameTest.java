package io.nonstopstorm.metrics.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nonstopstorm.wire.ExecutorId;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ExecutorThreadNameTest {
    @Test
    void parsesStormExecutorThreadNames() {
        assertEquals(Optional.of(new ExecutorThreadName("split", new ExecutorId(3, 4))),
            ExecutorThreadName.parse("Thread-12-split-executor[3, 4]"));
        assertEquals(Optional.of(new ExecutorThreadName("my-executor-bolt", new ExecutorId(7, 7))),
            ExecutorThreadName.parse("Thread-3-my-executor-bolt-executor[7, 7]"));
        assertEquals(Optional.of(new ExecutorThreadName("__system", new ExecutorId(-1, -1))),
            ExecutorThreadName.parse("Thread-20-__system-executor[-1, -1]"));
    }

    @Test
    void otherThreadsAreNotExecutors() {
        assertTrue(ExecutorThreadName.parse("Thread-5").isEmpty());
        assertTrue(ExecutorThreadName.parse("main").isEmpty());
        assertTrue(ExecutorThreadName.parse("Thread-5-split-executor[4, 3]").isEmpty());
        assertTrue(ExecutorThreadName.parse("worker-transfer-queue").isEmpty());
        assertTrue(ExecutorThreadName.parse(null).isEmpty());
    }
}
