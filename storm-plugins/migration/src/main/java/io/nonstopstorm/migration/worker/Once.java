package io.nonstopstorm.migration.worker;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A value computed on first use and then shared: concurrent first callers wait for the one
 * computation. A computation that throws is not remembered; the next call tries again.
 */
public final class Once<T> implements Supplier<T> {
    private final Supplier<T> compute;
    private volatile T value;

    public Once(Supplier<T> compute) {
        this.compute = Objects.requireNonNull(compute);
    }

    @Override
    public T get() {
        T v = value;
        if (v == null) {
            synchronized (this) {
                v = value;
                if (v == null) {
                    v = Objects.requireNonNull(compute.get(), "computed value");
                    value = v;
                }
            }
        }
        return v;
    }
}
