package dev.metahook.cli;

import dev.metahook.Metahook;
import dev.metahook.ServeOptions;
import dev.metahook.internal.server.WarmUp;
import java.time.Duration;

/**
 * {@code serve} as the jar runs it, but with a warm-up budget long enough for a busy host, so that
 * {@code src/bench/classes-at-ready} (COMPLETE_WARM_UP=1) counts the classes of a start whose warm-up finished, as
 * on a quiet machine, whatever the load: the counts are then what to compare between two jars.
 */
public final class StartCensus {
    public static void main(String[] args) {
        ServeOptions.Builder options = ServeOptions.fromEnvironment();
        for (WarmUp.Call call : BuiltInControllers.warmUp().calls()) {
            options.warmUp(call.controller(), call.hook(), call.body());
        }
        options.warmUpBudget(Duration.ofSeconds(60));
        Metahook.serve(BuiltInControllers.all(DatabaseKey.fromEnvironment(System.getenv()), System.getenv()), options.build());
    }
}
