package io.nonstopstorm.ui;

import java.util.List;

/** Where the recorded moves come from: ZooKeeper in the server ({@link ZkMoveSource}), fixed lists in tests. */
public interface MoveSource {

    /** Every topology's latest decision documents, in topology-name order. */
    List<DecisionDocs> read() throws MovesUnavailableException;

    /** A source that never has moves, saying why (no ZooKeeper configured, bad credentials in the conf). */
    static MoveSource unavailable(String reason) {
        return () -> {
            throw new MovesUnavailableException(reason);
        };
    }
}
