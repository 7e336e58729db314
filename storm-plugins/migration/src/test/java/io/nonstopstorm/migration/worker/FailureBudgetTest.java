package io.nonstopstorm.migration.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class FailureBudgetTest {
    @Test
    void theWorkerExitsAtTheLastAttemptInARow() {
        FailureBudget b = new FailureBudget(3);
        assertEquals(FailureBudget.Next.RETRY, b.failed());
        assertEquals(FailureBudget.Next.RETRY, b.failed());
        assertEquals(FailureBudget.Next.EXIT, b.failed());
        assertEquals(3, b.failures());
    }

    @Test
    void aSuccessStartsTheCountAgain() {
        FailureBudget b = new FailureBudget(2);
        assertEquals(FailureBudget.Next.RETRY, b.failed());
        b.succeeded();
        assertEquals(FailureBudget.Next.RETRY, b.failed());
        assertEquals(FailureBudget.Next.EXIT, b.failed());
    }

    @Test
    void oneAttemptExitsAtOnceAndNoneIsRefused() {
        assertEquals(FailureBudget.Next.EXIT, new FailureBudget(1).failed());
        assertThrows(IllegalArgumentException.class, () -> new FailureBudget(0));
    }

    @Test
    void aLoggedTaskSurvivesExceptionsAndPassesErrorsOn() {
        AtomicInteger runs = new AtomicInteger();
        Runnable failing = LoggedTask.of(LoggerFactory.getLogger(FailureBudgetTest.class), "test", () -> {
            runs.incrementAndGet();
            throw new IllegalStateException("boom");
        });
        failing.run();
        failing.run();
        assertEquals(2, runs.get());
        Runnable error = LoggedTask.of(LoggerFactory.getLogger(FailureBudgetTest.class), "test", () -> {
            throw new AssertionError("fatal");
        });
        assertThrows(AssertionError.class, error::run);
    }
}
