/**
 * State handoff in a live move (docs/state-handoff.md): the opt-in interface a bolt implements, and the
 * pure core of the protocol: the {@link io.nonstopstorm.migration.state.Handoff} state machine, the
 * snapshot's chunking and reassembly, the bounded buffer for tuples that reach the new instance
 * before its state, and {@link io.nonstopstorm.migration.state.StatefulBoltSnapshot}, what a Storm stateful
 * bolt with the in-memory provider hands over without opting in (its state's current, prepared and
 * committed contents, the executor's checkpoint bookkeeping, the tuples it acks at the next commits; read
 * and installed by {@code io.nonstopstorm.migration.worker.StatefulBoltAccess}), and
 * {@link io.nonstopstorm.migration.state.WindowSnapshot}, what a Storm count-windowed bolt hands over (its
 * window's tuples, the last window's membership, the expired tuples and the count policies' counters; read
 * and installed by {@code io.nonstopstorm.migration.worker.WindowedBoltAccess}). No Storm types and no
 * effects here; the worker runtime applies them.
 */
package io.nonstopstorm.migration.state;
