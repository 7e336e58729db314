package io.nonstopstorm.scheduling.model;

import java.util.Objects;
import java.util.function.Function;

/**
 * The result of an algorithm that can legitimately fail (not enough slots, capacity exceeded, ...):
 * either a value or a human-readable reason. Expected failures travel as values, never as exceptions.
 */
public sealed interface Outcome<T> {

    record Success<T>(T value) implements Outcome<T> {
        public Success {
            Objects.requireNonNull(value, "value");
        }
    }

    record Failure<T>(String reason) implements Outcome<T> {
        public Failure {
            Objects.requireNonNull(reason, "reason");
        }
    }

    static <T> Outcome<T> success(T value) {
        return new Success<>(value);
    }

    static <T> Outcome<T> failure(String reason) {
        return new Failure<>(reason);
    }

    default boolean isSuccess() {
        return this instanceof Success;
    }

    /** The value; throws {@link IllegalStateException} with the reason if this is a failure. */
    default T orElseThrow() {
        if (this instanceof Success<T> s) {
            return s.value();
        }
        throw new IllegalStateException(((Failure<T>) this).reason());
    }

    /** The failure reason, or {@code null} on success. */
    default String reasonOrNull() {
        return this instanceof Failure<T> f ? f.reason() : null;
    }

    default <U> Outcome<U> map(Function<? super T, ? extends U> f) {
        if (this instanceof Success<T> s) {
            return new Success<>(f.apply(s.value()));
        }
        return new Failure<>(((Failure<T>) this).reason());
    }

    default <U> Outcome<U> flatMap(Function<? super T, Outcome<U>> f) {
        if (this instanceof Success<T> s) {
            return f.apply(s.value());
        }
        return new Failure<>(((Failure<T>) this).reason());
    }
}
