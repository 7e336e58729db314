package io.nonstopstorm.grouping.core;

/** Argument checks shared by the routing cores, so that bad configuration fails with one clear message. */
final class Checks {
    private Checks() {
    }

    static int positive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive, got " + value);
        }
        return value;
    }

    static double nonNegative(String name, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + " must be a finite number >= 0, got " + value);
        }
        return value;
    }
}
