package io.nonstopstorm.migration.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class OnceTest {

    @Test
    void concurrentFirstCallersShareOneComputation() throws Exception {
        AtomicInteger computed = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        Once<Object> once = new Once<>(() -> {
            computed.incrementAndGet();
            try {
                Thread.sleep(50);   // long enough that the other callers arrive meanwhile
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new Object();
        });
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Object>> got = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                got.add(pool.submit(() -> {
                    go.await();
                    return once.get();
                }));
            }
            go.countDown();
            Object first = got.get(0).get(10, TimeUnit.SECONDS);
            for (Future<Object> f : got) {
                assertSame(first, f.get(10, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, computed.get());
        once.get();
        assertEquals(1, computed.get());
    }

    @Test
    void aFailedComputationIsTriedAgain() {
        AtomicInteger calls = new AtomicInteger();
        Once<String> once = new Once<>(() -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("disk not ready");
            }
            return "conf";
        });
        assertThrows(IllegalStateException.class, once::get);
        assertEquals("conf", once.get());
        assertEquals("conf", once.get());
        assertEquals(2, calls.get());
    }
}
