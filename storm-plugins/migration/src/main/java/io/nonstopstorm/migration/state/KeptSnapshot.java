package io.nonstopstorm.migration.state;

import java.util.List;
import java.util.Objects;

/**
 * The source's copy of one handed-over snapshot, kept from its first send until the target confirms the
 * install (docs/state-handoff.md, F1). The old instance processed nothing after its barrier, so this copy is
 * exact for as long as the target has not installed it: if the target's worker dies first, its supervisor
 * relaunches it on the same slot and the copy is sent there again, a new attempt, every
 * {@link HandoffLimits#confirmResendMs()} until confirmed. Past {@link HandoffLimits#confirmTimeoutMs()} from
 * the first send the copy is given up (released, the reason said). Pure: the caller passes the time and
 * performs the sends; thread-safe, since confirmations arrive on the receive path and checks run on a timer.
 */
public final class KeptSnapshot {

    /** What the timer should do now. */
    public sealed interface Due {
    }

    /** Nothing yet; look again in {@code inMs}. */
    public record Wait(long inMs) implements Due {
    }

    /** Send every chunk again as attempt {@code attempt}. */
    public record Resend(int attempt) implements Due {
    }

    /** Release the copy: it was not confirmed in time. */
    public record GiveUp(String reason) implements Due {
    }

    /** The copy was confirmed or given up before: nothing more to do. */
    public record Ended(String how) implements Due {
    }

    /** What a confirmation (or the target's refusal) did. */
    public sealed interface Confirmation {
    }

    /** This confirmation ended the handoff (after {@code attempts} sends): the copy may be dropped. */
    public record Confirmed(int attempts, long tookMs) implements Confirmation {
    }

    /** The target declined this snapshot (after {@code attempts} sends): the copy is released, its state lost. */
    public record Declined(int attempts) implements Confirmation {
    }

    /** It changed nothing (another move's, a repeat, or one after giving up), and why. */
    public record Ignored(String why) implements Confirmation {
    }

    private final long planVersion;
    private final List<SnapshotChunk> chunks;
    private final long bytes;
    private final HandoffLimits limits;
    private final long firstSentMs;
    private long lastSentMs;
    private int attempt = 1;
    private String ended;

    /** A copy whose first attempt was sent at {@code sentMs}. */
    public KeptSnapshot(long planVersion, List<SnapshotChunk> chunks, HandoffLimits limits, long sentMs) {
        this.planVersion = planVersion;
        this.chunks = List.copyOf(Objects.requireNonNull(chunks, "chunks"));
        if (this.chunks.isEmpty()) {
            throw new IllegalArgumentException("a snapshot has at least one chunk");
        }
        this.bytes = this.chunks.get(0).totalBytes();
        this.limits = Objects.requireNonNull(limits, "limits");
        this.firstSentMs = sentMs;
        this.lastSentMs = sentMs;
    }

    public long planVersion() {
        return planVersion;
    }

    public List<SnapshotChunk> chunks() {
        return chunks;
    }

    public long bytes() {
        return bytes;
    }

    public synchronized int attempt() {
        return attempt;
    }

    /** Whether the copy is still kept (neither confirmed nor given up). */
    public synchronized boolean kept() {
        return ended == null;
    }

    /** The target confirmed the install of plan {@code version}. */
    public synchronized Confirmation confirm(long version, long nowMs) {
        if (version != planVersion) {
            return new Ignored("install confirmed for plan v" + version + ", the kept copy is v" + planVersion);
        }
        if (ended != null) {
            return new Ignored("the copy of plan v" + planVersion + " is no longer kept (" + ended + ")");
        }
        ended = "confirmed";
        return new Confirmed(attempt, Math.max(0, nowMs - firstSentMs));
    }

    /**
     * The target declined the snapshot of plan {@code version} ({@code reason}: its heap cannot take it) and
     * started the task without it: resending cannot help, so the copy is released.
     */
    public synchronized Confirmation declined(long version, String reason) {
        if (version != planVersion) {
            return new Ignored("snapshot of plan v" + version + " declined, the kept copy is v" + planVersion);
        }
        if (ended != null) {
            return new Ignored("the copy of plan v" + planVersion + " is no longer kept (" + ended + ")");
        }
        ended = "declined by the target: " + reason;
        return new Declined(attempt);
    }

    /** The timer's look: give up past the timeout, resend when a confirmation is overdue, else wait. */
    public synchronized Due check(long nowMs) {
        if (ended != null) {
            return new Ended(ended);
        }
        long kept = nowMs - firstSentMs;
        if (kept >= limits.confirmTimeoutMs()) {
            ended = "given up";
            return new GiveUp("the target did not confirm installing plan v" + planVersion + " within "
                              + HandoffLimits.CONFIRM_TIMEOUT_MS + " = " + limits.confirmTimeoutMs() + " ms ("
                              + attempt + " attempt(s)); the state is released");
        }
        long idle = nowMs - lastSentMs;
        if (idle >= limits.confirmResendMs()) {
            attempt++;
            lastSentMs = nowMs;
            return new Resend(attempt);
        }
        return new Wait(Math.min(limits.confirmResendMs() - idle, limits.confirmTimeoutMs() - kept));
    }

    /** Another move of the task made this copy stale (the task runs elsewhere, or here again): drop it. */
    public synchronized boolean drop(String why) {
        if (ended != null) {
            return false;
        }
        ended = why;
        return true;
    }
}
