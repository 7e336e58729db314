package org.apache.storm.daemon.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class LocalTaskListTest {

    @Test
    void behavesLikeTheSortedArrayListStormExpects() {
        LocalTaskList l = new LocalTaskList(List.of(5, -1, 3));
        assertEquals(List.of(-1, 3, 5), l);
        assertEquals(List.of(-1, 3, 5), new ArrayList<>(l));
        assertTrue(l.contains(3));
        assertEquals(new HashSet<>(List.of(-1, 3, 5)), new HashSet<>(l));
        l.update(List.of(4), List.of(3));
        assertEquals(List.of(-1, 4, 5), l);
        assertEquals(3, l.stream().count());
        assertThrows(UnsupportedOperationException.class, () -> l.set(0, 1));
    }

    @Test
    void readersNeverFailWhileItChanges() throws Exception {
        LocalTaskList l = new LocalTaskList(List.of(-1, 1, 2, 3));
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            while (!done.get()) {
                try {
                    // What Storm's timers do with it: copy into sets, iterate, contains.
                    HashSet<Integer> copy = new HashSet<>(l);
                    int n = 0;
                    for (Integer t : l) {
                        n += t;
                    }
                    if (!copy.contains(-1) || n < -1) {
                        throw new AssertionError("lost the system task");
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                    return;
                }
            }
        });
        reader.start();
        for (int i = 0; i < 20_000; i++) {
            l.update(List.of(10 + i % 7), List.of(10 + (i + 3) % 7));
        }
        done.set(true);
        reader.join();
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
    }
}
