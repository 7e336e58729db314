package io.nonstopstorm.ui;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.ErrorInfo;

/** Component errors as the UI reports them: a component's last error fields, and its error list. */
final class ErrorViews {

    /** The UI truncates a component's last error to this many characters. */
    static final int LAST_ERROR_CHARS = 200;

    private final LogLinks links;
    private final Clock clock;

    ErrorViews(LogLinks links, Clock clock) {
        this.links = links;
        this.clock = clock;
    }

    /** lastError/errorHost/errorPort/errorWorkerLogLink/errorTime/errorLapsedSecs; blank values when no error. */
    Map<String, Object> lastError(ErrorInfo error, String topologyId) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (error == null) {
            m.put("lastError", "");
            m.put("errorHost", "");
            m.put("errorPort", null);
            m.put("errorWorkerLogLink", "");
            m.put("errorTime", null);
            m.put("errorLapsedSecs", null);
            return m;
        }
        String text = String.valueOf(error.get_error());
        m.put("lastError", text.substring(0, Math.min(text.length(), LAST_ERROR_CHARS)));
        m.putAll(where(error, topologyId));
        return m;
    }

    /** componentErrors: every reported error, oldest first, with its full text. */
    List<Map<String, Object>> errors(List<ErrorInfo> errors, String topologyId) {
        List<ErrorInfo> sorted = new ArrayList<>(errors);
        sorted.sort(Comparator.comparingInt(ErrorInfo::get_error_time_secs));
        List<Map<String, Object>> out = new ArrayList<>();
        for (ErrorInfo e : sorted) {
            Map<String, Object> m = new LinkedHashMap<>(where(e, topologyId));
            m.put("error", e.get_error());
            out.add(m);
        }
        return out;
    }

    private Map<String, Object> where(ErrorInfo e, String topologyId) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("errorTime", e.get_error_time_secs());
        m.put("errorHost", e.get_host());
        m.put("errorPort", e.get_port());
        m.put("errorWorkerLogLink", links.worker(e.get_host(), e.get_port(), topologyId));
        m.put("errorLapsedSecs", clock.instant().getEpochSecond() - e.get_error_time_secs());
        return m;
    }
}
