package io.nonstopstorm.grouping.core;

/** One virtual worker handed from one worker to another by a source. */
public record VirtualWorkerMove(int virtualWorker, int from, int to) {
}
