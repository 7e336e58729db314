/**
 * State handoff in a live move (docs/state-handoff.md): the opt-in interface a bolt implements, and the
 * pure core of the protocol: the {@link io.nonstopstorm.migration.state.Handoff} state machine, the
 * snapshot's chunking and reassembly, and the bounded buffer for tuples that reach the new instance
 * before its state. No Storm types and no effects here; the worker runtime applies them.
 */
package io.nonstopstorm.migration.state;
