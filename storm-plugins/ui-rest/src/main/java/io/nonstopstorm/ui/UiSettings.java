package io.nonstopstorm.ui;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.DaemonConfig;
import org.apache.storm.utils.ObjectReader;
import org.apache.storm.utils.Utils;
import org.apache.storm.utils.VersionInfo;

/**
 * The few cluster settings the UI's JSON reports or derives links from, read once from the Storm config
 * so that the JSON mapping stays a pure function of thrift objects plus these values.
 *
 * @param stormVersion             version of the Storm libraries this server runs with
 * @param schedulerDisplayResource "scheduler.display.resource", echoed as Storm's UI does
 * @param logviewerPort            plain logviewer port (links use it unless the HTTPS port is set)
 * @param logviewerHttpsPort       HTTPS logviewer port, negative when unset
 * @param profilerEnabled          "worker.profiler.enabled"
 * @param remoteNimbusSeeds        "host:port" of configured Nimbus seeds that are not loopback names; one that
 *                                 Nimbus does not report is listed as offline
 */
public record UiSettings(String stormVersion, Object schedulerDisplayResource, int logviewerPort,
                         int logviewerHttpsPort, boolean profilerEnabled, List<String> remoteNimbusSeeds) {

    public UiSettings {
        remoteNimbusSeeds = List.copyOf(remoteNimbusSeeds);
    }

    /** Settings with Storm's defaults, for tests and callers without a config. */
    public static UiSettings defaults(String stormVersion) {
        return new UiSettings(stormVersion, false, 8000, -1, false, List.of());
    }

    /** Reads the settings from a Storm config map (defaults.yaml merged with storm.yaml). */
    public static UiSettings fromConfig(Map<String, Object> conf) {
        List<String> seeds = new ArrayList<>();
        Object rawSeeds = conf.get(Config.NIMBUS_SEEDS);
        int nimbusPort = ObjectReader.getInt(conf.get(Config.NIMBUS_THRIFT_PORT), 6627);
        if (rawSeeds instanceof List<?> list) {
            for (Object seed : list) {
                String host = String.valueOf(seed);
                if (!Utils.isLocalhostAddress(host)) {
                    seeds.add(host + ":" + nimbusPort);
                }
            }
        }
        return new UiSettings(
            VersionInfo.getVersion(),
            conf.get(DaemonConfig.SCHEDULER_DISPLAY_RESOURCE),
            ObjectReader.getInt(conf.get(DaemonConfig.LOGVIEWER_PORT), 8000),
            ObjectReader.getInt(conf.get(DaemonConfig.LOGVIEWER_HTTPS_PORT), -1),
            ObjectReader.getBoolean(conf.get(DaemonConfig.WORKER_PROFILER_ENABLED), false),
            seeds);
    }

    /** True when links should point at the HTTPS logviewer. */
    public boolean secureLogviewer() {
        return logviewerHttpsPort >= 0;
    }

    /** The logviewer port links use. */
    public int linkedLogviewerPort() {
        return secureLogviewer() ? logviewerHttpsPort : logviewerPort;
    }

    public String logviewerScheme() {
        return secureLogviewer() ? "https" : "http";
    }
}
