package io.nonstopstorm.scheduling.cli;

/** A problem with the planning input, phrased for the person who wrote it (where, what, what is expected). */
final class InputError extends RuntimeException {

    private static final long serialVersionUID = 1L;

    InputError(String message) {
        super(message);
    }
}
