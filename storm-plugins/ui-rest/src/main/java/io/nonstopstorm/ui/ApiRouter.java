package io.nonstopstorm.ui;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.storm.generated.AuthorizationException;
import org.apache.storm.generated.ComponentPageInfo;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.thrift.TException;
import org.apache.storm.thrift.transport.TTransportException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maps Storm UI REST API v1 requests onto Nimbus calls and the JSON views. Knows nothing of HTTP transport:
 * takes an {@link ApiRequest}, returns an {@link ApiResponse}, never throws.
 */
public final class ApiRouter {

    private static final Logger LOG = LoggerFactory.getLogger(ApiRouter.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** How many of the last moves the placement document lists. */
    static final int MOVES_KEPT = 20;

    @FunctionalInterface
    private interface Handler {
        ApiResponse handle(ApiRequest req, Map<String, String> params) throws TException;
    }

    private record Route(String method, List<String> pattern, Handler handler) {

        /** Path parameters if the path fits the pattern ("{name}" segments match anything), else null. */
        Map<String, String> match(List<String> segments) {
            if (segments.size() != pattern.size()) {
                return null;
            }
            Map<String, String> params = new HashMap<>();
            for (int i = 0; i < pattern.size(); i++) {
                String p = pattern.get(i);
                if (p.startsWith("{")) {
                    params.put(p.substring(1, p.length() - 1), segments.get(i));
                } else if (!p.equals(segments.get(i))) {
                    return null;
                }
            }
            return params;
        }
    }

    private final NimbusGateway nimbus;
    private final ClusterViews clusterViews;
    private final TopologyViews topologyViews;
    private final ComponentViews componentViews;
    private final WorkerViews workerViews;
    private final MoveSource moveSource;
    private final MoveLog moveLog = new MoveLog(MOVES_KEPT);
    private final Clock clock;
    private final List<Route> routes = new ArrayList<>();

    /** A router without recorded moves: the placement document says they are unavailable. */
    public ApiRouter(NimbusGateway nimbus, UiSettings settings, Clock clock) {
        this(nimbus, settings, clock, MoveSource.unavailable("this server reads no ZooKeeper"));
    }

    public ApiRouter(NimbusGateway nimbus, UiSettings settings, Clock clock, MoveSource moveSource) {
        this.nimbus = nimbus;
        this.moveSource = moveSource;
        this.clock = clock;
        this.clusterViews = new ClusterViews(settings);
        this.topologyViews = new TopologyViews(settings, clock);
        this.componentViews = new ComponentViews(settings, clock);
        this.workerViews = new WorkerViews(settings);
        // Literal routes come before parameterised ones that would also match ("topology/summary").
        get("cluster/configuration", (r, p) -> ApiResponse.ok(SecretKeys.redact(nimbusConf())));
        get("cluster/summary", (r, p) -> ApiResponse.ok(clusterViews.clusterSummary(nimbus.clusterInfo())));
        get("nimbus/summary", (r, p) -> ApiResponse.ok(clusterViews.nimbusSummary(nimbus.clusterInfo())));
        get("supervisor/summary", (r, p) -> ApiResponse.ok(clusterViews.supervisorSummary(nimbus.clusterInfo())));
        get("supervisor", this::supervisor);
        get("topology/summary", (r, p) -> ApiResponse.ok(clusterViews.topologySummary(nimbus.clusterInfo())));
        get("topology/{id}", this::topology);
        get("topology/{id}/component/{component}", this::component);
        get("nonstop/placement", (r, p) -> placement());
        get("topology-workers/{id}", (r, p) -> ApiResponse.ok(workerViews.hostPortList(nimbus.topologyInfo(p.get("id")))));
        post("topology/{id}/activate", (r, p) -> {
            nimbus.activate(topologyName(p.get("id")));
            return operationDone(p.get("id"), "activate");
        });
        post("topology/{id}/deactivate", (r, p) -> {
            nimbus.deactivate(topologyName(p.get("id")));
            return operationDone(p.get("id"), "deactivate");
        });
        post("topology/{id}/kill/{wait}", (r, p) -> {
            KillOptions options = new KillOptions();
            options.set_wait_secs(waitSecs(p.get("wait")));
            nimbus.kill(topologyName(p.get("id")), options);
            return operationDone(p.get("id"), "kill");
        });
        post("topology/{id}/rebalance/{wait}", (r, p) -> {
            int wait = waitSecs(p.get("wait"));
            nimbus.rebalance(topologyName(p.get("id")), RebalanceRequest.parse(r.body(), wait));
            return operationDone(p.get("id"), "rebalance");
        });
    }

    private void get(String pattern, Handler h) {
        routes.add(new Route("GET", List.of(("api/v1/" + pattern).split("/")), h));
    }

    private void post(String pattern, Handler h) {
        routes.add(new Route("POST", List.of(("api/v1/" + pattern).split("/")), h));
    }

    public ApiResponse handle(ApiRequest req) {
        boolean pathKnown = false;
        for (Route route : routes) {
            Map<String, String> params = route.match(req.segments());
            if (params == null) {
                continue;
            }
            pathKnown = true;
            if (route.method().equals(req.method())) {
                return run(route, req, params);
            }
        }
        return pathKnown
            ? ApiResponse.error(405, req.method() + " is not supported on " + req.path())
            : ApiResponse.error(404, "No such endpoint: " + req.path());
    }

    private ApiResponse run(Route route, ApiRequest req, Map<String, String> params) {
        String topologyId = params.get("id");
        try {
            return route.handler().handle(req, params);
        } catch (ApiException e) {
            return ApiResponse.error(e.status(), e.getMessage());
        } catch (NotAliveException e) {
            return ApiResponse.error(404, "Topology " + topologyId + " is not alive (unknown or killed)");
        } catch (AuthorizationException e) {
            return ApiResponse.error(403, "Nimbus refused: " + e.get_msg());
        } catch (InvalidTopologyException e) {
            return ApiResponse.error(400, "Nimbus rejected the request: " + e.get_msg());
        } catch (NimbusUnavailableException | TTransportException e) {
            return ApiResponse.error(503, e.getMessage());
        } catch (TException | RuntimeException e) {
            LOG.warn("{} {} failed", req.method(), req.path(), e);
            return ApiResponse.error(500, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private ApiResponse supervisor(ApiRequest req, Map<String, String> params) throws TException {
        String id = req.query().get("id");
        String host = req.query().get("host");
        if (isBlank(id) && isBlank(host)) {
            throw new ApiException(400, "give a supervisor 'id' or 'host' parameter");
        }
        return ApiResponse.ok(clusterViews.supervisorPage(
            nimbus.supervisorPage(isBlank(id) ? null : id, isBlank(id) ? host : null, sys(req))));
    }

    private ApiResponse topology(ApiRequest req, Map<String, String> params) throws TException {
        String window = window(req);
        return ApiResponse.ok(topologyViews.topologyPage(nimbus.topologyPage(params.get("id"), window, sys(req)), window));
    }

    private ApiResponse component(ApiRequest req, Map<String, String> params) throws TException {
        String id = params.get("id");
        String component = params.get("component");
        String window = window(req);
        boolean sys = sys(req);
        // Nimbus answers any name with an empty page; the UI's 404 needs the topology's component list.
        StormTopology topology = nimbus.systemTopology(id);
        if (!Thrift.map(topology.get_spouts()).containsKey(component)
            && !Thrift.map(topology.get_bolts()).containsKey(component)) {
            throw new ApiException(404, "Topology " + id + " has no component " + component);
        }
        ComponentPageInfo page = nimbus.componentPage(id, component, window, sys);
        return ApiResponse.ok(componentViews.componentPage(page, id, component, window));
    }

    /** Every running topology's executors by node and worker, and the last moves: {@link PlacementDocument}. */
    private ApiResponse placement() throws TException {
        List<TopologyInfo> infos = new ArrayList<>();
        for (TopologySummary t : Thrift.list(nimbus.clusterInfo().get_topologies())) {
            try {
                infos.add(nimbus.topologyInfo(t.get_id()));
            } catch (NotAliveException e) {
                // killed since the listing: it is simply not running any more
            }
        }
        List<String> problems = new ArrayList<>();
        List<RecordedMoves.Move> seen = new ArrayList<>();
        try {
            for (DecisionDocs docs : moveSource.read()) {
                try {
                    seen.addAll(RecordedMoves.of(docs));
                } catch (IllegalArgumentException e) {
                    problems.add(e.getMessage()); // one broken document hides only its own topology's move
                }
            }
        } catch (MovesUnavailableException e) {
            problems.add(e.getMessage());
        }
        return ApiResponse.ok(PlacementDocument.of(infos, moveLog.record(seen),
            problems.isEmpty() ? null : String.join("; ", problems), clock.millis()));
    }

    /** Nimbus's configuration, which it sends as a JSON string, in Nimbus's key order. */
    private Map<String, Object> nimbusConf() throws TException {
        try {
            return JSON.readValue(nimbus.nimbusConf(), new TypeReference<LinkedHashMap<String, Object>>() { });
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Nimbus sent a configuration that is not a JSON object", e);
        }
    }

    private String topologyName(String topologyId) throws TException {
        return nimbus.topologyInfo(topologyId).get_name();
    }

    private static ApiResponse operationDone(String topologyId, String operation) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("topologyOperation", operation);
        body.put("topologyId", topologyId);
        body.put("status", "success");
        return ApiResponse.ok(body);
    }

    private static String window(ApiRequest req) {
        String raw = req.query().get("window");
        return StatWindow.parse(raw).orElseThrow(() -> new ApiException(400,
            "window must be one of " + StatWindow.KNOWN + ", got '" + raw + "'"));
    }

    private static boolean sys(ApiRequest req) {
        String raw = req.query().getOrDefault("sys", "");
        return switch (raw.toLowerCase(Locale.ROOT)) {
            case "", "0", "false" -> false;
            case "1", "true" -> true;
            default -> throw new ApiException(400, "sys must be 1/0 or true/false, got '" + raw + "'");
        };
    }

    private static int waitSecs(String raw) {
        try {
            int wait = Integer.parseInt(raw);
            if (wait >= 0) {
                return wait;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ApiException(400, "wait time must be a non-negative number of seconds, got '" + raw + "'");
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }
}
