package io.nonstopstorm.ui;

import static io.nonstopstorm.ui.Fixtures.listOf;
import static io.nonstopstorm.ui.Fixtures.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.apache.storm.generated.ClusterSummary;
import org.junit.jupiter.api.Test;

class ClusterViewsTest {

    private final UiSettings settings = new UiSettings("2.8.3", true, 8000, -1, false, List.of("nimbus-b:6627"));
    private final ClusterViews views = new ClusterViews(settings);

    private ClusterSummary cluster() {
        return new ClusterSummary(
            listOf(
                // One supervisor reports the normalized resource names, the other only the legacy config keys.
                Fixtures.supervisor("sup-1", "host-a", 4, 3, Map.of("memory.mb", 4096.0, "cpu.pcore.percent", 400.0),
                    1024, 100),
                Fixtures.supervisor("sup-2", "host-b", 2, 0,
                    Map.of("supervisor.memory.capacity.mb", 1024.0, "supervisor.cpu.capacity", 100.0), 0, 0)),
            listOf(Fixtures.topology("t1-1-1", "t1", 10, 8, 2), Fixtures.topology("t2-2-2", "t2", 5, 4, 1)),
            listOf(Fixtures.nimbus("nimbus-a", 6627, true), Fixtures.nimbus("nimbus-b", 6627, false)));
    }

    @Test
    void clusterSummaryAddsUpSupervisorsAndTopologies() {
        Map<String, Object> m = views.clusterSummary(cluster());
        assertEquals("2.8.3", m.get("stormVersion"));
        assertEquals(2, m.get("supervisors"));
        assertEquals(2, m.get("topologies"));
        assertEquals(6, m.get("slotsTotal"));
        assertEquals(3, m.get("slotsUsed"));
        assertEquals(3, m.get("slotsFree"));
        assertEquals(12, m.get("executorsTotal"));
        assertEquals(15, m.get("tasksTotal"));
        assertEquals(5120.0, m.get("totalMem"));
        assertEquals(500.0, m.get("totalCpu"));
        assertEquals(4096.0, m.get("availMem"));
        assertEquals(400.0, m.get("availCpu"));
        assertEquals("20.000", m.get("memAssignedPercentUtil"));
        assertEquals("20.000", m.get("cpuAssignedPercentUtil"));
        assertEquals(true, m.get("schedulerDisplayResource"));
    }

    @Test
    void emptyClusterHasZeroUtilisation() {
        Map<String, Object> m = views.clusterSummary(new ClusterSummary(listOf(), listOf(), listOf()));
        assertEquals(0, m.get("slotsTotal"));
        assertEquals("0.0", m.get("memAssignedPercentUtil"));
    }

    @Test
    void nimbusSummaryMarksLeaderAndSilentSeeds() {
        ClusterSummary onlyLeader = new ClusterSummary(listOf(), listOf(), listOf(Fixtures.nimbus("nimbus-a", 6627, true)));
        List<Map<String, Object>> nimbuses = rows(views.nimbusSummary(onlyLeader), "nimbuses");
        assertEquals(2, nimbuses.size());
        assertEquals("nimbus-a", nimbuses.get(0).get("host"));
        assertEquals("Leader", nimbuses.get(0).get("status"));
        assertEquals("1m 1s", nimbuses.get(0).get("nimbusUpTime"));
        assertEquals(61, nimbuses.get(0).get("nimbusUpTimeSeconds"));
        assertEquals("http://nimbus-a:8000/api/v1/daemonlog?file=nimbus.log", nimbuses.get(0).get("nimbusLogLink"));
        assertEquals("nimbus-b", nimbuses.get(1).get("host"));
        assertEquals("Offline", nimbuses.get(1).get("status"));

        List<Map<String, Object>> both = rows(views.nimbusSummary(cluster()), "nimbuses");
        assertEquals(List.of("Leader", "Not a Leader"), both.stream().map(n -> n.get("status")).toList());
    }

    @Test
    void supervisorSummaryDescribesEachSupervisor() {
        List<Map<String, Object>> sups = rows(views.supervisorSummary(cluster()), "supervisors");
        Map<String, Object> s = sups.get(0);
        assertEquals("sup-1", s.get("id"));
        assertEquals("host-a", s.get("host"));
        assertEquals("2m 5s", s.get("uptime"));
        assertEquals(125, s.get("uptimeSeconds"));
        assertEquals(4, s.get("slotsTotal"));
        assertEquals(3, s.get("slotsUsed"));
        assertEquals(1, s.get("slotsFree"));
        assertEquals(4096.0, s.get("totalMem"));
        assertEquals(1024.0, s.get("usedMem"));
        assertEquals(3072.0, s.get("availMem"));
        assertEquals(1024.0, sups.get(1).get("totalMem"));
        assertEquals(100.0, sups.get(1).get("totalCpu"));
    }

    @Test
    void topologySummaryDescribesEachTopology() {
        List<Map<String, Object>> topos = rows(views.topologySummary(cluster()), "topologies");
        Map<String, Object> t = topos.get(0);
        assertEquals("t1-1-1", t.get("id"));
        assertEquals("t1", t.get("name"));
        assertEquals("ACTIVE", t.get("status"));
        assertEquals("1h 2m 5s", t.get("uptime"));
        assertEquals(3725, t.get("uptimeSeconds"));
        assertEquals(10, t.get("tasksTotal"));
        assertEquals(8, t.get("executorsTotal"));
        assertEquals(2, t.get("workersTotal"));
        assertEquals(320.0, t.get("requestedTotalMem"));
        assertEquals(544.0, t.get("assignedTotalMem"));
        assertEquals("alice", t.get("owner"));
    }
}
