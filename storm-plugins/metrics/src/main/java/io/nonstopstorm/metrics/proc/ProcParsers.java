package io.nonstopstorm.metrics.proc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/** Pure parsers of the /proc files the metrics plane reads (formats per proc(5)). */
public final class ProcParsers {
    private ProcParsers() {
    }

    /** Aggregate CPU jiffies of the machine: all, idle (idle + iowait), and the number of CPUs listed. */
    public record CpuTimes(long total, long idle, int cpuCount) {
    }

    /** Received and transmitted bytes of one network interface since boot. */
    public record NetBytes(long rx, long tx) {
    }

    /** /proc/stat: the "cpu" line; guest times are already part of user time, so they are not added. */
    public static CpuTimes cpuTimes(String procStat) {
        long total = -1;
        long idle = 0;
        int cpus = 0;
        for (String line : procStat.split("\n")) {
            if (line.startsWith("cpu ")) {
                String[] f = line.trim().split("\\s+");
                total = 0;
                for (int i = 1; i < f.length && i <= 8; i++) {
                    total += Long.parseLong(f[i]);
                }
                idle = Long.parseLong(f[4]) + (f.length > 5 ? Long.parseLong(f[5]) : 0);
            } else if (line.startsWith("cpu") && line.length() > 3 && Character.isDigit(line.charAt(3))) {
                cpus++;
            }
        }
        if (total < 0) {
            throw new IllegalArgumentException("no aggregate 'cpu' line in /proc/stat");
        }
        return new CpuTimes(total, idle, cpus);
    }

    /** /proc/[pid]/stat: utime + stime in clock ticks. The command name may hold spaces and ')'. */
    public static OptionalLong processCpuTicks(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            return OptionalLong.empty();
        }
        String[] f = stat.substring(close + 1).trim().split("\\s+");
        // f[0] is field 3 (state); utime and stime are fields 14 and 15.
        if (f.length < 13) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(f[11]) + Long.parseLong(f[12]));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** /proc/net/dev: bytes per interface, in file order. */
    public static Map<String, NetBytes> netDev(String netDev) {
        Map<String, NetBytes> out = new LinkedHashMap<>();
        for (String line : netDev.split("\n")) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;  // the two header lines
            }
            String[] f = line.substring(colon + 1).trim().split("\\s+");
            if (f.length < 9) {
                continue;
            }
            out.put(line.substring(0, colon).trim(), new NetBytes(Long.parseLong(f[0]), Long.parseLong(f[8])));
        }
        return out;
    }

    /** /proc/cpuinfo: mean "cpu MHz" over the listed CPUs, if the kernel reports it (x86 does, many ARMs do not). */
    public static OptionalDouble cpuMhz(String cpuinfo) {
        double sum = 0;
        int n = 0;
        for (String line : cpuinfo.split("\n")) {
            if (line.startsWith("cpu MHz")) {
                int colon = line.indexOf(':');
                try {
                    sum += Double.parseDouble(line.substring(colon + 1).trim());
                    n++;
                } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
                    // a garbled line does not hide the others
                }
            }
        }
        return n == 0 ? OptionalDouble.empty() : OptionalDouble.of(sum / n);
    }

    /** /proc/[pid]/task/[tid]/children: space-separated pids. */
    public static List<Long> pids(String children) {
        List<Long> out = new ArrayList<>();
        for (String s : children.trim().split("\\s+")) {
            if (!s.isEmpty()) {
                try {
                    out.add(Long.parseLong(s));
                } catch (NumberFormatException e) {
                    // ignore garbage
                }
            }
        }
        return out;
    }
}
