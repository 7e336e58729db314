package io.nonstopstorm.ui;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** Logviewer URLs in the form Storm's UI emits them (workerLogLink, nimbusLogLink, logLink, eventLogLink). */
public final class LogLinks {

    private final UiSettings settings;

    public LogLinks(UiSettings settings) {
        this.settings = settings;
    }

    public String worker(String host, int port, String topologyId) {
        return file(host, topologyId + "/" + port + "/worker.log");
    }

    public String eventLog(String host, int port, String topologyId) {
        return file(host, topologyId + "/" + port + "/events.log");
    }

    public String daemon(String host, String logFile) {
        return base(host) + "/api/v1/daemonlog?file=" + encode(logFile);
    }

    private String file(String host, String relativePath) {
        return base(host) + "/api/v1/log?file=" + encode(relativePath);
    }

    private String base(String host) {
        return settings.logviewerScheme() + "://" + encode(String.valueOf(host)) + ":" + settings.linkedLogviewerPort();
    }

    static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
