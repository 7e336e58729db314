package io.nonstopstorm.grouping.core;

import java.nio.charset.StandardCharsets;

/**
 * The routing state one source keeps for one stream edge, and the choice it makes per message.
 *
 * <p>Implementations are pure routing cores: no Storm types, no clock, randomness only from an
 * injected seeded generator. {@link #route(byte[])} both chooses a worker and records the choice in
 * the source-local state (the load estimates some schemes use), so it is called once per message.
 */
public interface KeyRouter {

    /** Number of workers routed to; choices are in [0, workerCount()). */
    int workerCount();

    /** Chooses the worker for one message with this key and records the choice. */
    int route(byte[] key);

    /** {@link #route(byte[])} on the key's UTF-8 bytes. */
    default int route(String key) {
        return route(key.getBytes(StandardCharsets.UTF_8));
    }
}
