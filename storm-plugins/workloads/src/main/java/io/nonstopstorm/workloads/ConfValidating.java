package io.nonstopstorm.workloads;

import java.util.Map;

/** A component that can check its "workload.*" settings on the submitting side, before any worker runs it. */
public interface ConfValidating {
    /** Throws IllegalArgumentException with a clear message if the conf is not usable. */
    void validate(Map<String, Object> conf);
}
