package io.nonstopstorm.migration.state;

import io.nonstopstorm.wire.ConfValues;

/**
 * The bounds of one handoff (docs/state-handoff.md, "Configuration"), checked once.
 *
 * @param maxBytes          largest snapshot handed over; a larger one refuses the move before anything is sent
 * @param chunkBytes        bytes of snapshot per chunk message
 * @param earlyBufferBytes  tuples the target holds for the new instance before its state is installed
 * @param transferTimeoutMs longest time from the barrier to the install before the handoff is aborted
 * @param maxResends        how many times missing chunks may be sent again before the handoff is aborted
 * @param confirmResendMs   how long the source waits for the target's install confirmation before it sends its
 *                          kept copy again (the target's worker may have died and been relaunched)
 * @param confirmTimeoutMs  longest time the source keeps its copy unconfirmed, from its first send; then it
 *                          releases it (the state is lost, as before the confirmation was built)
 */
public record HandoffLimits(long maxBytes, int chunkBytes, long earlyBufferBytes, long transferTimeoutMs,
                            int maxResends, long confirmResendMs, long confirmTimeoutMs) {

    public static final String MAX_BYTES = "nonstop.migration.state.max.bytes";
    public static final String CHUNK_BYTES = "nonstop.migration.state.chunk.bytes";
    public static final String EARLY_BUFFER_BYTES = "nonstop.migration.state.early.buffer.bytes";
    public static final String TRANSFER_TIMEOUT_MS = "nonstop.migration.state.transfer.timeout.ms";
    public static final String RESEND_MAX = "nonstop.migration.state.resend.max";
    public static final String CONFIRM_RESEND_MS = "nonstop.migration.state.confirm.resend.ms";
    public static final String CONFIRM_TIMEOUT_MS = "nonstop.migration.state.confirm.timeout.ms";
    /**
     * How often a worker measures each opting-in task's state size for the scheduler (F2 before the switch);
     * 0 = never. Not part of one handoff's bounds: read on its own ({@link #probeMs}).
     */
    public static final String PROBE_MS = "nonstop.migration.state.probe.ms";
    public static final long DEFAULT_PROBE_MS = 10_000;
    /** The switch: off, a move starts the new instance empty (the behaviour before state handoff). */
    public static final String HANDOFF = "nonstop.migration.state.handoff";

    /** A snapshot is one Java array on each side. */
    public static final long LARGEST_SNAPSHOT = Integer.MAX_VALUE - 8;

    public static final HandoffLimits DEFAULTS = new HandoffLimits(64L << 20, 256 << 10, 16L << 20, 30_000, 2, 5_000,
                                                                   120_000);

    /** The limits with the install confirmation's defaults. */
    public HandoffLimits(long maxBytes, int chunkBytes, long earlyBufferBytes, long transferTimeoutMs, int maxResends) {
        this(maxBytes, chunkBytes, earlyBufferBytes, transferTimeoutMs, maxResends, 5_000, 120_000);
    }

    public HandoffLimits {
        if (maxBytes < 0 || maxBytes > LARGEST_SNAPSHOT) {
            throw new IllegalArgumentException(MAX_BYTES + " must be 0.." + LARGEST_SNAPSHOT + " bytes, got "
                                               + maxBytes);
        }
        if (chunkBytes <= 0) {
            throw new IllegalArgumentException(CHUNK_BYTES + " must be > 0 bytes, got " + chunkBytes);
        }
        if (earlyBufferBytes < chunkBytes) {
            // Smaller than a chunk, the buffer would refuse most real tuples and hold the senders back for good.
            throw new IllegalArgumentException(EARLY_BUFFER_BYTES + " must be >= " + CHUNK_BYTES + " (" + chunkBytes
                                               + "), got " + earlyBufferBytes);
        }
        if (transferTimeoutMs <= 0) {
            throw new IllegalArgumentException(TRANSFER_TIMEOUT_MS + " must be > 0 ms, got " + transferTimeoutMs);
        }
        if (maxResends < 0) {
            throw new IllegalArgumentException(RESEND_MAX + " must be >= 0, got " + maxResends);
        }
        if (confirmResendMs <= 0) {
            throw new IllegalArgumentException(CONFIRM_RESEND_MS + " must be > 0 ms, got " + confirmResendMs);
        }
        if (confirmTimeoutMs < confirmResendMs) {
            throw new IllegalArgumentException(CONFIRM_TIMEOUT_MS + " must be >= " + CONFIRM_RESEND_MS + " ("
                                               + confirmResendMs + " ms), got " + confirmTimeoutMs);
        }
    }

    /** How many chunks a snapshot of this many bytes takes: at least one (an empty state is one empty chunk). */
    public int chunkCount(long snapshotBytes) {
        return SnapshotChunker.chunkCount(snapshotBytes, chunkBytes);
    }

    /** Whether {@link #HANDOFF} is on in a Storm conf map (default on). */
    public static boolean enabled(java.util.Map<String, Object> conf) {
        return ConfValues.flag(conf, HANDOFF, true);
    }

    /**
     * {@link #PROBE_MS} from a Storm conf map (absent: {@value #DEFAULT_PROBE_MS}).
     *
     * @throws IllegalArgumentException naming the key when the value is malformed or negative
     */
    public static long probeMs(java.util.Map<String, Object> conf) {
        long ms = ConfValues.wholeNumber(conf, PROBE_MS, DEFAULT_PROBE_MS);
        if (ms < 0) {
            throw new IllegalArgumentException(PROBE_MS + " must be >= 0 ms (0: never), got " + ms);
        }
        return ms;
    }

    /**
     * Reads the limits from a Storm conf map; absent keys take {@link #DEFAULTS}.
     *
     * @throws IllegalArgumentException naming the offending key when a value is malformed or out of range
     */
    public static HandoffLimits fromConf(java.util.Map<String, Object> conf) {
        return new HandoffLimits(ConfValues.wholeNumber(conf, MAX_BYTES, DEFAULTS.maxBytes),
                                 Math.toIntExact(ConfValues.wholeNumber(conf, CHUNK_BYTES, DEFAULTS.chunkBytes)),
                                 ConfValues.wholeNumber(conf, EARLY_BUFFER_BYTES, DEFAULTS.earlyBufferBytes),
                                 ConfValues.wholeNumber(conf, TRANSFER_TIMEOUT_MS, DEFAULTS.transferTimeoutMs),
                                 Math.toIntExact(ConfValues.wholeNumber(conf, RESEND_MAX, DEFAULTS.maxResends)),
                                 ConfValues.wholeNumber(conf, CONFIRM_RESEND_MS, DEFAULTS.confirmResendMs),
                                 ConfValues.wholeNumber(conf, CONFIRM_TIMEOUT_MS, DEFAULTS.confirmTimeoutMs));
    }
}
