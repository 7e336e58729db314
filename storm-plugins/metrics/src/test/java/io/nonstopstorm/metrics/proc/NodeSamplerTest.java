package io.nonstopstorm.metrics.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NodeSamplerTest {
    @TempDir
    Path proc;

    private void state(long user, long idle, long lo) throws IOException {
        Files.createDirectories(proc.resolve("net"));
        Files.writeString(proc.resolve("stat"), "cpu  " + user + " 0 0 " + idle + " 0 0 0 0 0 0\ncpu0 1\ncpu1 1\n");
        Files.writeString(proc.resolve("net/dev"), "h1\nh2\n lo: " + lo + " 0 0 0 0 0 0 0 " + (2 * lo) + " 0 0 0 0 0 0 0\n");
    }

    @Test
    void busyCoresAndNetworkBytesOverTheWindow() throws IOException {
        Files.writeString(proc.resolve("cpuinfo"), "cpu MHz : 3000.0\n");
        NodeSampler s = new NodeSampler(new ProcFs(proc));
        state(100, 900, 1000);
        NodeSampler.NodeWindow first = s.sample();
        assertNull(first.busyCores());
        assertEquals(Map.of(), first.netBytes());
        state(250, 950, 1600);  // 150 busy of 200 jiffies on 2 CPUs
        NodeSampler.NodeWindow second = s.sample();
        assertEquals(1.5, second.busyCores(), 1e-9);
        assertEquals(2, second.cpuCount());
        assertEquals(new ProcParsers.NetBytes(600, 1200), second.netBytes().get("lo"));
        assertEquals(3000.0, s.cpuMhz().getAsDouble());
    }

    @Test
    void aNodePinnedToOneCpuCountsThatCpuOnly() throws IOException {
        NodeSampler s = new NodeSampler(new ProcFs(proc));
        Files.createDirectories(proc.resolve("self"));
        Files.writeString(proc.resolve("self/status"), "Name:\tjava\nCpus_allowed_list:\t1\n");
        Files.writeString(proc.resolve("stat"), "cpu  200 0 0 800 0 0 0 0\ncpu0 100 0 0 400 0 0 0 0\ncpu1 100 0 0 400 0 0 0 0\n");
        s.sample();
        // cpu1 busy 90 of 100 jiffies, cpu0 idle: the node (cpu1) is 0.9 busy, not the machine's 0.45 x 2.
        Files.writeString(proc.resolve("stat"), "cpu  290 0 0 910 0 0 0 0\ncpu0 100 0 0 500 0 0 0 0\ncpu1 190 0 0 410 0 0 0 0\n");
        NodeSampler.NodeWindow w = s.sample();
        assertEquals(1, w.cpuCount());
        assertEquals(0.9, w.busyCores(), 1e-9);
    }
}
