package io.nonstopstorm.migration.worker;

import io.nonstopstorm.migration.state.HandoffState;
import java.util.List;
import org.apache.storm.multilang.ShellMsg;

/**
 * The state handoff of a multilang (shell) bolt that opts in, over the multilang protocol
 * (docs/state-handoff.md, "As built: multilang bolts"). The snapshot is the JSON text the subprocess answers
 * with; Java never parses it, and the new instance's subprocess gets it back as it was.
 *
 * <ul>
 *   <li>request {@code {"id": I, "stream": "__nonstop_snapshot", "task": -1, "tuple": []}}, answered by
 *       {@code {"command": "nonstop_snapshot", "id": I, "msg": "<the state as JSON text>"}};</li>
 *   <li>request {@code {"id": I, "stream": "__nonstop_restore", "task": -1, "tuple": ["<JSON text>"]}},
 *       answered by {@code {"command": "nonstop_restored", "id": I}};</li>
 *   <li>either answered by {@code {"command": "nonstop_failed", "id": I, "msg": "<why>"}} when the bolt's own
 *       code failed.</li>
 * </ul>
 */
public final class MultilangHandoff implements HandoffState<String> {
    /** The component conf key a Python bolt's topology definition sets to opt in. */
    public static final String OPT_IN = "nonstop.migration.state.multilang";
    public static final String SNAPSHOT_STREAM = "__nonstop_snapshot";
    public static final String RESTORE_STREAM = "__nonstop_restore";
    static final String SNAPSHOT = "nonstop_snapshot";
    static final String RESTORED = "nonstop_restored";
    static final String FAILED = "nonstop_failed";

    private final ShellBoltAccess.Channel channel;
    private final long timeoutMs;

    public MultilangHandoff(ShellBoltAccess.Channel channel, long timeoutMs) {
        this.channel = channel;
        this.timeoutMs = timeoutMs;
    }

    /** Whether a component conf value opts in: the boolean true or the string "true". */
    public static boolean optsIn(Object value) {
        return Boolean.TRUE.equals(value) || "true".equals(value);
    }

    @Override
    public String snapshotState() {
        return answer(channel.request(SNAPSHOT_STREAM, List.of(), timeoutMs), SNAPSHOT);
    }

    @Override
    public void restoreState(String snapshot) {
        answer(channel.request(RESTORE_STREAM, List.of(snapshot), timeoutMs), RESTORED);
    }

    /** The reply's text if it is the expected command; otherwise why the subprocess refused. */
    static String answer(ShellMsg reply, String expected) {
        if (expected.equals(reply.getCommand())) {
            String text = reply.getMsg();
            if (SNAPSHOT.equals(expected) && text == null) {
                throw new IllegalStateException("the subprocess's snapshot carries no state");
            }
            return text;
        }
        if (FAILED.equals(reply.getCommand())) {
            throw new IllegalStateException("the subprocess refused: " + reply.getMsg());
        }
        throw new IllegalStateException("the subprocess answered " + reply.getCommand() + ", expected " + expected);
    }
}
