package io.nonstopstorm.metrics.proc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/** Pure parsers of the /proc files the metrics plane reads (formats per proc(5)). */
public final class ProcParsers {
    private ProcParsers() {
    }

    /** CPU jiffies: all, idle (idle + iowait), and the number of CPUs they are summed over. */
    public record CpuTimes(long total, long idle, int cpuCount) {
    }

    /** Received and transmitted bytes of one network interface since boot. */
    public record NetBytes(long rx, long tx) {
    }

    /** /proc/stat: the aggregate "cpu" line (the whole machine) and the number of CPUs listed. */
    public static CpuTimes cpuTimes(String procStat) {
        return cpuTimes(procStat, null);
    }

    /**
     * CPU jiffies of the CPUs in {@code only} (per-CPU lines "cpuN"), or of the whole machine (the
     * aggregate "cpu" line) when {@code only} is null or empty. A node pinned to some CPUs (a cpuset,
     * taskset) has those CPUs as its capacity, not the machine's.
     */
    public static CpuTimes cpuTimes(String procStat, Set<Integer> only) {
        boolean subset = only != null && !only.isEmpty();
        long total = -1;
        long idle = 0;
        int cpus = 0;
        long subTotal = 0;
        long subIdle = 0;
        int subCpus = 0;
        for (String line : procStat.split("\n")) {
            if (line.startsWith("cpu ")) {
                long[] t = jiffies(line);
                total = t[0];
                idle = t[1];
            } else if (line.startsWith("cpu") && line.length() > 3 && Character.isDigit(line.charAt(3))) {
                cpus++;
                if (subset) {
                    String[] f = line.trim().split("\\s+");
                    if (only.contains(Integer.parseInt(f[0].substring(3)))) {
                        long[] t = jiffies(line);
                        subTotal += t[0];
                        subIdle += t[1];
                        subCpus++;
                    }
                }
            }
        }
        if (total < 0) {
            throw new IllegalArgumentException("no aggregate 'cpu' line in /proc/stat");
        }
        if (subset && subCpus > 0) {
            return new CpuTimes(subTotal, subIdle, subCpus);
        }
        return new CpuTimes(total, idle, cpus);
    }

    /** user..steal summed, and idle + iowait; guest times are already part of user time. */
    private static long[] jiffies(String line) {
        String[] f = line.trim().split("\\s+");
        long total = 0;
        for (int i = 1; i < f.length && i <= 8; i++) {
            total += Long.parseLong(f[i]);
        }
        long idle = Long.parseLong(f[4]) + (f.length > 5 ? Long.parseLong(f[5]) : 0);
        return new long[] {total, idle};
    }

    /**
     * /proc/[pid]/status "Cpus_allowed_list" ("0-1,4"): the CPUs the process may run on, empty when the
     * line is missing or malformed (then the machine counts).
     */
    public static Set<Integer> cpusAllowed(String status) {
        Set<Integer> out = new TreeSet<>();
        for (String line : status.split("\n")) {
            if (!line.startsWith("Cpus_allowed_list:")) {
                continue;
            }
            try {
                for (String part : line.substring(line.indexOf(':') + 1).trim().split(",")) {
                    if (part.isBlank()) {
                        continue;
                    }
                    int dash = part.indexOf('-');
                    int lo = Integer.parseInt(part.substring(0, dash < 0 ? part.length() : dash).trim());
                    int hi = dash < 0 ? lo : Integer.parseInt(part.substring(dash + 1).trim());
                    if (lo < 0 || hi < lo || hi - lo > 65536) {
                        return Set.of();
                    }
                    for (int c = lo; c <= hi; c++) {
                        out.add(c);
                    }
                }
            } catch (NumberFormatException e) {
                return Set.of();
            }
            return out;
        }
        return Set.of();
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
