package io.nonstopstorm.migration.worker;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.FileAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogFlushTest {
    @Test
    void aBufferedLineReachesTheFileOnlyOnceFlushed(@TempDir Path dir) throws Exception {
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        Configuration conf = ctx.getConfiguration();
        Path file = dir.resolve("worker.log");
        FileAppender appender = FileAppender.newBuilder().setName("buffered-test").withFileName(file.toString())
            .withImmediateFlush(false).withBufferedIo(true)
            .setLayout(PatternLayout.newBuilder().withPattern("%m%n").build()).setConfiguration(conf).build();
        appender.start();
        conf.addAppender(appender);
        LoggerConfig lc = new LoggerConfig("logflush.test", Level.INFO, false);
        lc.addAppender(appender, Level.INFO, null);
        conf.addLogger("logflush.test", lc);
        ctx.updateLoggers();
        try {
            LogManager.getLogger("logflush.test").error("exiting so that the supervisor relaunches this worker");
            assertFalse(Files.readString(file).contains("exiting"), "buffered: not yet in the file");
            LogFlush.flush();
            assertTrue(Files.readString(file).contains("exiting"), "flushed");
        } finally {
            conf.removeLogger("logflush.test");
            ctx.updateLoggers();
            appender.stop();
        }
    }
}
