package io.nonstopstorm.migration.worker;

import org.slf4j.Logger;

/**
 * Wraps a task for a ScheduledExecutorService, which keeps what a task throws to itself (and silently
 * cancels a periodic task): the failure is logged with the task's name; an exception does not end a
 * periodic task, an Error is passed on.
 */
public final class LoggedTask {
    private LoggedTask() {
    }

    public static Runnable of(Logger log, String name, Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                log.error("nonstop: task '{}' failed", name, e);
            } catch (Error e) {
                log.error("nonstop: task '{}' failed", name, e);
                throw e;
            }
        };
    }
}
