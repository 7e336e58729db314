package io.nonstopstorm.metrics.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ProcParsersTest {
    @Test
    void procStatAggregateLineAndCpuCount() {
        String stat = "cpu  100 5 50 800 20 1 2 3 40 0\ncpu0 50 2 25 400 10 0 1 1 20 0\ncpu1 50 3 25 400 10 1 1 2 20 0\n"
            + "intr 123\nctxt 5\n";
        ProcParsers.CpuTimes t = ProcParsers.cpuTimes(stat);
        assertEquals(100 + 5 + 50 + 800 + 20 + 1 + 2 + 3, t.total(), "guest time is part of user time already");
        assertEquals(820, t.idle());
        assertEquals(2, t.cpuCount());
        assertThrows(IllegalArgumentException.class, () -> ProcParsers.cpuTimes("intr 1\n"));
    }

    @Test
    void procStatOfTheCpusANodeIsPinnedTo() {
        String stat = "cpu  300 0 100 600 0 0 0 0 0 0\ncpu0 100 0 50 400 0 0 0 0 0 0\ncpu1 200 0 50 200 0 0 0 0 0 0\n";
        assertEquals(new ProcParsers.CpuTimes(450, 200, 1), ProcParsers.cpuTimes(stat, Set.of(1)));
        assertEquals(new ProcParsers.CpuTimes(1000, 600, 2), ProcParsers.cpuTimes(stat, Set.of()));
        assertEquals(new ProcParsers.CpuTimes(1000, 600, 2), ProcParsers.cpuTimes(stat, null));
        // A CPU that is allowed but not present (an affinity mask wider than the machine) adds nothing.
        assertEquals(new ProcParsers.CpuTimes(550, 400, 1), ProcParsers.cpuTimes(stat, Set.of(0, 7)));
        // None of the allowed CPUs listed: the machine counts rather than nothing.
        assertEquals(new ProcParsers.CpuTimes(1000, 600, 2), ProcParsers.cpuTimes(stat, Set.of(9)));
    }

    @Test
    void allowedCpusFromProcessStatus() {
        assertEquals(Set.of(0, 1, 4), ProcParsers.cpusAllowed("Name:\tjava\nCpus_allowed:\t13\nCpus_allowed_list:\t0-1,4\n"));
        assertEquals(Set.of(3), ProcParsers.cpusAllowed("Cpus_allowed_list:\t3\n"));
        assertEquals(Set.of(), ProcParsers.cpusAllowed("Name:\tjava\n"));
        assertEquals(Set.of(), ProcParsers.cpusAllowed("Cpus_allowed_list:\t3-x\n"));
        assertEquals(Set.of(), ProcParsers.cpusAllowed("Cpus_allowed_list:\t5-2\n"));
    }

    @Test
    void processStatWithAWeirdCommand() {
        String stat = "4242 (python3 (x) y) S 1 4242 4242 0 -1 4194304 1000 0 0 0 250 75 0 0 20 0 3 0 12345 0 0";
        assertEquals(OptionalLong.of(325), ProcParsers.processCpuTicks(stat));
        assertEquals(OptionalLong.empty(), ProcParsers.processCpuTicks(""));
        assertEquals(OptionalLong.empty(), ProcParsers.processCpuTicks("1 (x) S 1 2"));
    }

    @Test
    void netDevBytesPerInterface() {
        String dev = "Inter-|   Receive                                                |  Transmit\n"
            + " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
            + "    lo: 1000      10    0    0    0     0          0         0     1000      10    0    0    0     0       0          0\n"
            + "  eth0:55 1 0 0 0 0 0 0 77 1 0 0 0 0 0 0\n";
        Map<String, ProcParsers.NetBytes> m = ProcParsers.netDev(dev);
        assertEquals(List.of("lo", "eth0"), List.copyOf(m.keySet()));
        assertEquals(new ProcParsers.NetBytes(55, 77), m.get("eth0"));
    }

    @Test
    void cpuMhzIsTheMeanOverCpus() {
        assertEquals(OptionalDouble.of(2500.0), ProcParsers.cpuMhz("processor: 0\ncpu MHz\t\t: 2400.000\n"
            + "processor: 1\ncpu MHz\t\t: 2600.000\n"));
        assertTrue(ProcParsers.cpuMhz("processor: 0\nBogoMIPS: 50\n").isEmpty());
    }

    @Test
    void childrenPids() {
        assertEquals(List.of(12L, 13L), ProcParsers.pids("12 13 \n"));
        assertEquals(List.of(), ProcParsers.pids(""));
    }
}
