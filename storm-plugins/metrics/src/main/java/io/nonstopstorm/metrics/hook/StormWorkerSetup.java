package io.nonstopstorm.metrics.hook;

import java.lang.management.ManagementFactory;
import java.util.Map;
import io.nonstopstorm.metrics.MetricsSettings;
import io.nonstopstorm.metrics.WorkerSetup;
import io.nonstopstorm.metrics.cpu.JvmThreadSource;
import io.nonstopstorm.metrics.proc.ProcFs;
import io.nonstopstorm.metrics.publish.ZkPublisher;
import io.nonstopstorm.metrics.zk.ZkAuth;
import org.apache.storm.task.TopologyContext;

/** Builds a worker's metrics setup from Storm's worker conf and topology context. */
final class StormWorkerSetup {
    private StormWorkerSetup() {
    }

    static WorkerSetup create(Map<String, Object> conf, TopologyContext context) {
        MetricsSettings settings = MetricsSettings.fromConf(conf);
        String topologyId = context.getStormId();
        int port = context.getThisWorkerPort();
        long pid = ProcessHandle.current().pid();
        com.sun.management.OperatingSystemMXBean os =
            ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean o ? o : null;
        return new WorkerSetup(topologyId, port, settings, pid, ManagementFactory.getRuntimeMXBean().getStartTime(),
            TopologyShapeReader.read(context), StormQueueProbe.from(context),
            new ZkPublisher(settings.zkConnect(), settings.sessionTimeoutMs(), settings.connectionTimeoutMs(),
                settings.workerPath(topologyId, port), ZkAuth.fromConf(conf).orElse(null), settings.zkRoot()),
            new JvmThreadSource(), ProcFs.system(), Long.toString(pid),
            () -> os == null ? -1 : os.getProcessCpuTime(), System::nanoTime, System::currentTimeMillis);
    }
}
