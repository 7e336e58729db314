package io.nonstopstorm.migration.agent;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicReferenceArray;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.asm.Advice;
import org.junit.jupiter.api.Test;

/**
 * The verification relies on ByteBuddy failing a type's transformation (reported to the listener's
 * onError, so none of the type's advice counts as woven) when an advice reads a field whose type
 * changed, as ExecutorTransfer.queuesToFlush would in another Storm version.
 */
class WeavingErrorTest {
    @SuppressWarnings("unused")
    static class Transfer {
        private Object[] queuesToFlush;

        void tryTransfer() {
        }
    }

    static class ReadsQueues {
        @Advice.OnMethodEnter
        static void enter(@Advice.FieldValue("queuesToFlush") AtomicReferenceArray<Object> toFlush) {
        }
    }

    @Test
    void anAdviceOnAFieldOfAnotherTypeFailsTheTransformation() {
        assertThrows(IllegalStateException.class, () -> new ByteBuddy().redefine(Transfer.class)
            .visit(Advice.to(ReadsQueues.class).on(named("tryTransfer"))).make());
    }
}
