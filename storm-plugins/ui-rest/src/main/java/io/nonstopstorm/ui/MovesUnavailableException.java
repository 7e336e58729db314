package io.nonstopstorm.ui;

/** The recorded moves cannot be read (ZooKeeper unreachable, refused, not configured); the message says why. */
public final class MovesUnavailableException extends Exception {

    public MovesUnavailableException(String message) {
        super(message);
    }
}
