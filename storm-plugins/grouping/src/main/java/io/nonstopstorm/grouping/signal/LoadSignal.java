package io.nonstopstorm.grouping.signal;

/** The binary signal of worker delegation: a worker asks the sources for more or for less work. */
public enum LoadSignal {
    /** The worker is idle (below its lower threshold): give it a virtual worker. */
    INCREASE,
    /** The worker is busy (above its upper threshold): take a virtual worker away. */
    DECREASE
}
