package io.nonstopstorm.migration.state;

import java.util.List;
import java.util.Objects;

/** What the runtime observes during a handoff; {@link Handoff} decides what it means. */
public sealed interface HandoffEvent {

    /** Routing switched on the source and the barrier is in the old instance's queue. */
    record BarrierQueued() implements HandoffEvent {
    }

    /** The old instance reached the barrier and serialised its state to this many bytes. */
    record SnapshotTaken(long bytes) implements HandoffEvent {
        public SnapshotTaken {
            if (bytes < 0) {
                throw new IllegalArgumentException("snapshot bytes must be >= 0, got " + bytes);
            }
        }
    }

    /** The first chunks (HANDOFF_BEGIN and the first window) were handed to the connection. */
    record SendingStarted() implements HandoffEvent {
    }

    /** The target acknowledged every chunk below {@code below} (cumulative; a stale one changes nothing). */
    record ChunksAcked(int below) implements HandoffEvent {
    }

    /** The target found these chunks missing or corrupt at HANDOFF_END; they are sent again if allowed. */
    record ChunksMissing(List<Integer> indices) implements HandoffEvent {
        public ChunksMissing {
            indices = List.copyOf(Objects.requireNonNull(indices, "indices"));
        }
    }

    /**
     * The target restored the snapshot (HANDOFF_INSTALLED) of the move with this plan version: with the
     * executor, the handoff id, so a confirmation of an older or newer move is not taken for this one's.
     */
    record Installed(long planVersion) implements HandoffEvent {
    }

    /** The old instance dropped its copy and was stopped. */
    record Released() implements HandoffEvent {
    }

    /** The target's worker or the connection to it is gone. */
    record DestinationLost(String why) implements HandoffEvent {
    }

    /** The runtime's timer fired: the transfer timeout may have passed (the machine checks its clock). */
    record DeadlineCheck() implements HandoffEvent {
    }

    /** A newer plan changed this executor again. */
    record Superseded() implements HandoffEvent {
    }
}
