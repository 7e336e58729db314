package io.nonstopstorm.migration.agent;

import io.nonstopstorm.migration.nimbus.NimbusRounds;
import net.bytebuddy.asm.Advice;

/** ByteBuddy advice woven into Storm's Nimbus; see {@link NimbusRounds}. */
final class NimbusAdvice {
    private NimbusAdvice() {
    }

    /** Nimbus.launchServer(): its timer now runs the periodic rounds. */
    static final class Launched {
        @Advice.OnMethodExit
        static void exit(@Advice.This Object nimbus) {
            NimbusRounds.install(nimbus);
        }
    }
}
