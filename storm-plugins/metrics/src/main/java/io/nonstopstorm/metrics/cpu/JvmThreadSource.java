package io.nonstopstorm.metrics.cpu;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;

/** Threads and their CPU time from the platform ThreadMXBean (one bulk call per sample). */
public final class JvmThreadSource implements ThreadSource {
    private final ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    private final com.sun.management.ThreadMXBean bulk =
        mx instanceof com.sun.management.ThreadMXBean b ? b : null;

    public JvmThreadSource() {
        if (mx.isThreadCpuTimeSupported() && !mx.isThreadCpuTimeEnabled()) {
            mx.setThreadCpuTimeEnabled(true);
        }
    }

    @Override
    public List<ThreadReading> threads() {
        long[] ids = mx.getAllThreadIds();
        ThreadInfo[] infos = mx.getThreadInfo(ids);
        long[] cpu;
        if (bulk != null) {
            cpu = bulk.getThreadCpuTime(ids);
        } else {
            cpu = new long[ids.length];
            for (int i = 0; i < ids.length; i++) {
                cpu[i] = mx.getThreadCpuTime(ids[i]);
            }
        }
        List<ThreadReading> out = new ArrayList<>(ids.length);
        for (int i = 0; i < ids.length; i++) {
            if (infos[i] != null) {  // null: the thread ended between the two calls
                out.add(new ThreadReading(ids[i], infos[i].getThreadName(), cpu[i]));
            }
        }
        return out;
    }
}
