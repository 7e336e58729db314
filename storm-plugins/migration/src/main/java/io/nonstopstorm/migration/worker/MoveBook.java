package io.nonstopstorm.migration.worker;

import io.nonstopstorm.wire.ExecutorId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The moves under way in one worker, one per executor at most, each with the runtime's handle on its
 * executor instance ({@code H}: opaque here). Every change goes through {@link MoveMachine}; a move
 * leaves the book when it reaches a terminal phase. Not thread-safe: the caller serialises calls.
 */
public final class MoveBook<H> {
    /** One move: its identity (to tell a later move of the same executor apart), state and handle. */
    public record Move<H>(long id, MoveState state, H handle) {
    }

    private final MoveMachine machine;
    private final Map<ExecutorId, Move<H>> moves = new LinkedHashMap<>();
    private long nextId = 1;

    public MoveBook(MoveMachine machine) {
        this.machine = machine;
    }

    public MoveMachine machine() {
        return machine;
    }

    /**
     * Starts a move of {@code executor}. A move of it still under way is superseded first; that step is
     * returned so the caller can stop an old instance that still runs.
     */
    public Optional<Ended<H>> plan(ExecutorId executor, MoveRole role, long planVersion, long planWrittenAtMs,
                                   long nowMs) {
        Optional<Ended<H>> old = Optional.empty();
        Move<H> prev = moves.remove(executor);
        if (prev != null) {
            MoveStep s = machine.step(prev.state(), MoveEvent.PLAN_SUPERSEDED, nowMs,
                                      "plan v" + planVersion + " changed it again");
            old = Optional.of(new Ended<>(new Move<>(prev.id(), s.after(), prev.handle()), prev.state()));
        }
        MoveState planned = machine.plan(executor, role, planVersion, planWrittenAtMs, nowMs);
        moves.put(executor, new Move<>(nextId++, planned, null));
        return old;
    }

    /** A move ended from outside (a newer plan, shutdown), and the state it was in (its instance may still run). */
    public record Ended<H>(Move<H> move, MoveState before) {
    }

    /** Gives the current move of {@code executor} its instance handle. */
    public void attach(ExecutorId executor, H handle) {
        Move<H> m = moves.get(executor);
        if (m == null) {
            throw new IllegalStateException("no move of " + executor + " to attach a handle to");
        }
        moves.put(executor, new Move<>(m.id(), m.state(), handle));
    }

    /** Feeds one event to the current move of {@code executor}; empty when there is none. */
    public Optional<MoveStep> step(ExecutorId executor, MoveEvent event, long nowMs, String detail) {
        return step(executor, -1, event, nowMs, detail);
    }

    /**
     * As {@link #step(ExecutorId, MoveEvent, long, String)}, but only when the current move is the one
     * with id {@code moveId} (-1: any): a timer set for an earlier move of the same executor does nothing.
     */
    public Optional<MoveStep> step(ExecutorId executor, long moveId, MoveEvent event, long nowMs, String detail) {
        Move<H> m = moves.get(executor);
        if (m == null || (moveId >= 0 && m.id() != moveId)) {
            return Optional.empty();
        }
        MoveStep s = machine.step(m.state(), event, nowMs, detail);
        if (s.after().phase().terminal()) {
            moves.remove(executor);
        } else if (s.applied()) {
            moves.put(executor, new Move<>(m.id(), s.after(), m.handle()));
        }
        return Optional.of(s);
    }

    /** The moves whose instance is in place (started or detached), now waiting for connections. */
    public List<Move<H>> refreshed(long nowMs) {
        List<Move<H>> out = new ArrayList<>();
        for (Move<H> m : List.copyOf(moves.values())) {
            MovePhase p = m.state().phase();
            if (p == MovePhase.STARTED || p == MovePhase.DETACHED) {
                step(m.state().executor(), MoveEvent.REFRESHED, nowMs, null);
                out.add(moves.get(m.state().executor()));
            }
        }
        return out;
    }

    /**
     * What one routing switch did: how many of the refresh's moves left and arrived, how many switched
     * without their connections, the newest plan among them, the sources now draining (each needs its
     * lazy kill), and the events refused (moves that changed meanwhile; for the log).
     */
    public record Switch<H>(int out, int in, int timedOut, long planVersion, long planWrittenAtMs,
                            List<Move<H>> draining, List<MoveStep> refused) {
    }

    /**
     * Ends the connection wait of the moves a refresh took and switches them. When the wait saw every
     * connection ready, each move counts as connected (one lost since does not make the timeout due early);
     * otherwise each move that is not {@code ready} times out.
     *
     * @param claimed what {@link #refreshed} returned; not empty
     */
    public Switch<H> switched(List<Move<H>> claimed, boolean allReady, Predicate<Move<H>> ready, long nowMs) {
        int out = 0;
        int in = 0;
        int timedOut = 0;
        Move<H> latest = claimed.get(0);
        List<Move<H>> draining = new ArrayList<>();
        List<MoveStep> refused = new ArrayList<>();
        for (Move<H> m : claimed) {
            boolean connected = allReady || ready.test(m);
            timedOut += connected ? 0 : 1;
            MoveEvent e = connected ? MoveEvent.CONNECTIONS_READY : MoveEvent.CONNECTIONS_TIMED_OUT;
            step(m.state().executor(), m.id(), e, nowMs, null).filter(st -> !st.applied()).ifPresent(refused::add);
            if (m.state().role() == MoveRole.SOURCE) {
                out++;
            } else {
                in++;
            }
            if (m.state().planVersion() > latest.state().planVersion()) {
                latest = m;
            }
            Optional<MoveStep> sw = step(m.state().executor(), m.id(), MoveEvent.ROUTING_SWITCHED, nowMs, null);
            sw.filter(st -> !st.applied()).ifPresent(refused::add);
            if (sw.isPresent() && sw.get().entered(MovePhase.DRAINING)) {
                draining.add(moves.get(m.state().executor()));
            }
        }
        return new Switch<>(out, in, timedOut, latest.state().planVersion(), latest.state().planWrittenAtMs(),
                            draining, refused);
    }

    /** The current move of {@code executor}, if any. */
    public Optional<Move<H>> get(ExecutorId executor) {
        return Optional.ofNullable(moves.get(executor));
    }

    /** Handles of the old instances that still run (sources not stopped yet). */
    public List<H> liveInstances() {
        List<H> out = new ArrayList<>();
        for (Move<H> m : moves.values()) {
            if (m.state().instanceLive() && m.handle() != null) {
                out.add(m.handle());
            }
        }
        return out;
    }

    /** Ends every move (the worker shuts down); returns each with the state it was in. */
    public List<Ended<H>> shutdown(long nowMs) {
        List<Ended<H>> out = new ArrayList<>();
        for (Move<H> m : List.copyOf(moves.values())) {
            MoveStep s = machine.step(m.state(), MoveEvent.SHUTDOWN, nowMs);
            out.add(new Ended<>(new Move<>(m.id(), s.after(), m.handle()), m.state()));
        }
        moves.clear();
        return out;
    }

    public int size() {
        return moves.size();
    }
}
