package io.nonstopstorm.migration.worker;

import java.util.AbstractList;
import java.util.List;
import java.util.function.Supplier;

/**
 * A read-only list that always shows the current contents of a swapped list reference. Storm's
 * flush-tuple timer captures the executor list once at start-up; handing it this view makes it reach
 * executors added later. Meant for one reading thread that calls {@code size()} before {@code get(i)}
 * (an index loop): each {@code size()} takes a fresh snapshot that the following gets read.
 */
public final class LiveList<T> extends AbstractList<T> {
    private final Supplier<List<T>> source;
    private List<T> snapshot = List.of();

    public LiveList(Supplier<List<T>> source) {
        this.source = source;
    }

    @Override
    public int size() {
        List<T> now = source.get();
        snapshot = now == null ? List.of() : now;
        return snapshot.size();
    }

    @Override
    public T get(int index) {
        return snapshot.get(index);
    }
}
