package io.nonstopstorm.migration.state;

/**
 * A bolt that wants its state carried over when one of its executors moves implements this. Both
 * methods run on the executor's own thread (the old instance's at its snapshot, the new instance's
 * before its first {@code execute}), so they need no locking against {@code execute}.
 *
 * @param <S> the snapshot: serialised with the topology's Kryo, so it must be a registered class, a
 *            Kryo default (collections, boxed primitives, {@code byte[]}, strings), or Java-serialisable
 *            with {@code topology.fall.back.on.java.serialization}
 */
public interface HandoffState<S> {

    /**
     * The bolt's state now. The caller serialises it at once, so it may be a live view, but the bolt must
     * not change it until this returns. The old instance keeps its state: if the handoff fails, it resumes
     * with it. Also called now and then, on the executor's thread, to measure the state's size (the scheduler
     * refuses to move a state over the limit): it must have no side effect.
     */
    S snapshotState();

    /** Installs a snapshot taken by {@link #snapshotState()} of another instance of the same component. */
    void restoreState(S snapshot);
}
