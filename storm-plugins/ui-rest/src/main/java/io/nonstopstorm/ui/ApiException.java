package io.nonstopstorm.ui;

/** A request the router refuses, with the HTTP status to answer it with. */
public class ApiException extends RuntimeException {

    private final int status;

    public ApiException(int status, String message) {
        super(message);
        this.status = status;
    }

    public int status() {
        return status;
    }
}
