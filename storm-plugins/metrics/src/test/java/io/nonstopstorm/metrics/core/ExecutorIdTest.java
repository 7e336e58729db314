package io.nonstopstorm.metrics.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ExecutorIdTest {

    @Test
    void tasksAreTheInclusiveRangeEvenAtTheTopOfTheIntRange() {
        assertEquals(List.of(3, 4, 5), new ExecutorId(3, 5).tasks());
        assertEquals(List.of(Integer.MAX_VALUE - 1, Integer.MAX_VALUE),
                     new ExecutorId(Integer.MAX_VALUE - 1, Integer.MAX_VALUE).tasks());
    }
}
