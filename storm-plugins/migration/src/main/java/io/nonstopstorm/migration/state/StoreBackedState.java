package io.nonstopstorm.migration.state;

/**
 * A {@code KeyValueState} of a persistent provider (docs/state-handoff.md, "As built: Storm's stateful bolts"):
 * its committed and prepared data are in a store that a new instance of the same namespace reads itself when
 * the provider builds it, so a live move hands over only what this object holds beyond that store. The
 * provider's state class implements this; a provider whose class does not keeps Storm's recovery on a move (one
 * rollback and replay).
 */
public interface StoreBackedState {
    /**
     * The puts and deletes that a new instance built now over the same store would not show: applied to it,
     * it shows exactly what this one shows. Read on the executor's thread; changes nothing.
     */
    UnstoredChanges unstoredChanges();
}
