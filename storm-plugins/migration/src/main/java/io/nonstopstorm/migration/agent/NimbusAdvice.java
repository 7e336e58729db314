package io.nonstopstorm.migration.agent;

import io.nonstopstorm.migration.nimbus.NimbusRounds;
import net.bytebuddy.asm.Advice;

/** ByteBuddy advice woven into Storm's Nimbus; see {@link NimbusRounds}. */
final class NimbusAdvice {
    private NimbusAdvice() {
    }

    /** Nimbus.launchServer(): Nimbus runs its periodic rounds from now on. */
    static final class Launched {
        @Advice.OnMethodExit
        static void exit(@Advice.This Object nimbus) {
            NimbusRounds.install(nimbus);
        }
    }

    /** Time.sleep(long): Nimbus's timer thread sleeps where a requested round can wake it. */
    static final class TimerSleep {
        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static boolean enter(@Advice.Argument(0) long ms) throws InterruptedException {
            return NimbusRounds.sleepIfTimer(ms);
        }
    }
}
