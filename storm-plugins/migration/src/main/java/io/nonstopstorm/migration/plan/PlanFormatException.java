package io.nonstopstorm.migration.plan;

/** A plan file that cannot be understood; the message says where. */
public class PlanFormatException extends Exception {
    public PlanFormatException(String message) {
        super(message);
    }

    public PlanFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
