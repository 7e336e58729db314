package io.nonstopstorm.migration.verify;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.storm.shade.net.minidev.json.JSONValue;

/**
 * What the agent found about the Storm it runs in, once per JVM: Storm's version, whether that version
 * is verified (or the operator allowed an unverified one), and every piece it needs that is missing:
 * advice that was not woven, Storm members it reaches by reflection that do not exist or changed type.
 * Migration runs only when nothing is missing and the version is acceptable. Pure.
 *
 * @param role            worker, supervisor or nimbus
 * @param stormVersion    Storm's own version string ({@code VersionInfo.getVersion()})
 * @param versionVerified the version is on {@link VerifiedStormVersions}
 * @param allowUnverified the operator's override ({@value #ALLOW_UNVERIFIED})
 * @param missing         one entry per missing piece, sorted
 */
public record VerificationReport(String role, String stormVersion, boolean versionVerified, boolean allowUnverified,
                                 List<String> missing) {
    /** System property (and storm.yaml key, where the daemon's conf is read) to run on an unverified Storm. */
    public static final String ALLOW_UNVERIFIED = "nonstop.migration.allow.unverified.storm";

    public VerificationReport {
        missing = List.copyOf(missing);
    }

    /**
     * @param required advice the role needs ({@code Type.method} names)
     * @param woven    advice the weaving listener saw applied
     * @param members  problems with Storm members reached by reflection
     */
    public static VerificationReport of(String role, String stormVersion, Set<String> required, Set<String> woven,
                                        List<String> members, boolean allowUnverified) {
        Set<String> missing = new TreeSet<>();
        for (String advice : required) {
            if (!woven.contains(advice)) {
                missing.add("advice " + advice + " not woven");
            }
        }
        missing.addAll(members);
        return new VerificationReport(role, stormVersion, VerifiedStormVersions.contains(stormVersion), allowUnverified,
                                      new ArrayList<>(missing));
    }

    /** Migration may run in this JVM. */
    public boolean migrationOn() {
        return missing.isEmpty() && (versionVerified || allowUnverified);
    }

    /** Everything that keeps migration off: the missing pieces and an unverified version without override. */
    public List<String> problems() {
        List<String> out = new ArrayList<>(missing);
        if (!versionVerified && !allowUnverified) {
            out.add(0, "Storm " + stormVersion + " is not a verified version (verified: "
                       + VerifiedStormVersions.all() + "; set " + ALLOW_UNVERIFIED + "=true to try it)");
        }
        return out;
    }

    /** The single line the agent logs at ERROR when migration is off. */
    public String errorLine() {
        return "nonstop: migration OFF in this " + role + " JVM (Storm " + stormVersion
               + "): stock Storm behaviour; missing: " + String.join("; ", problems());
    }

    /** The agents record ({@code /nonstop/agents/<host>}) and the worker's event-log fields. */
    public Map<String, Object> fields(String jvm, long timeMs) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("storm_version", stormVersion);
        m.put("verified", migrationOn());
        m.put("missing", problems());
        m.put("role", role);
        m.put("jvm", jvm);
        m.put("time", timeMs);
        return m;
    }

    public String toJson(String jvm, long timeMs) {
        return JSONValue.toJSONString(fields(jvm, timeMs));
    }
}
