package io.nonstopstorm.migration.worker;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractOutputStreamAppender;

/**
 * Writes out what the JVM's log appenders still buffer. The cluster's log4j configuration buffers
 * (immediateFlush=false, its shutdown hook disabled) and Storm ends a worker with a halt soon after
 * System.exit, so without this the line saying why a worker exits was lost with the JVM (seen once in
 * CI: the last line cut mid-word, the next JVM's first line appended to it).
 */
public final class LogFlush {
    private LogFlush() {
    }

    /** Best effort: a logging set-up other than log4j-core has nothing to flush here. */
    public static void flush() {
        try {
            if (LogManager.getContext(false) instanceof LoggerContext ctx) {
                for (Appender a : ctx.getConfiguration().getAppenders().values()) {
                    if (a instanceof AbstractOutputStreamAppender<?> out) {
                        out.getManager().flush();
                    }
                }
            }
        } catch (RuntimeException | LinkageError e) {
            // Nothing to add: the exit goes ahead, and the event log has the reason in any case.
        }
    }
}
