package io.nonstopstorm.ui;

import org.apache.storm.thrift.TException;

/** Nimbus could not be reached (not started yet, restarting, or no leader); the request may be retried later. */
public class NimbusUnavailableException extends TException {

    public NimbusUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
