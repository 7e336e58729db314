package io.nonstopstorm.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The paths are a contract with pycontrol and docs/architecture.md: a change here must be deliberate. */
class ZkPathsTest {

    @Test
    void pathsAreTheDocumentedOnes() {
        assertEquals("/nonstop/plans/wc", ZkPaths.plan("wc"));
        assertEquals("/nonstop/decisions/wc", ZkPaths.decision("wc"));
        assertEquals("/nonstop/decisions/wc.scheduler", ZkPaths.schedulerDecision("wc"));
        assertEquals("/nonstop/agents/10.0.0.1", ZkPaths.agent("10.0.0.1"));
        assertEquals("/nonstop/controller/decisions/wc", ZkPaths.controllerDecision("wc"));
        assertEquals("/nonstop/metrics/wc-1-2/h-6700", ZkPaths.metricsWorker(ZkPaths.METRICS, "wc-1-2", "h", 6700));
    }
}
