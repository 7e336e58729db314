package io.nonstopstorm.workloads.feed;

/** One line of a replay trace: when (ms from trace start), which key, and an optional payload. */
public record TraceRecord(long offsetMs, String key, String payload) {
}
