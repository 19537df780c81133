package dev.metahook.cli;

import dev.metahook.internal.engine.HookEngine;
import dev.metahook.internal.sim.ControllerSpec;
import dev.metahook.internal.sim.HookClient;
import dev.metahook.internal.sim.HttpHook;
import dev.metahook.internal.sim.InProcessHook;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;

/** The hook a command talks to: at a URL, or one of metahook's own controllers in-process. */
final class Hooks {
    /** A fixed key, so that in-process output is the same on every run; it is not any cluster's key. */
    private static final byte[] OFFLINE_KEY = "metahook offline database key".getBytes(StandardCharsets.UTF_8);

    private Hooks() {
    }

    static HookClient of(ControllerSpec spec, String url, Map<String, String> env) {
        return of(spec, url, HttpHook.Credentials.NONE, env);
    }

    /** A hook at {@code url} called with {@code credentials}, or (without a URL) one of metahook's own in-process. */
    static HookClient of(ControllerSpec spec, String url, HttpHook.Credentials credentials, Map<String, String> env) {
        if (url != null) {
            try {
                URI uri = URI.create(url);
                if (uri.getScheme() == null || uri.getHost() == null) {
                    throw new IllegalArgumentException("no scheme or host");
                }
                return HttpHook.of(spec, uri, credentials);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--url " + url + ": not an http(s) URL (" + e.getMessage() + ")");
            }
        }
        String name = builtInName(spec);
        boolean hasKey = env.containsKey("METAHOOK_DATABASE_KEY") || env.containsKey("METAHOOK_DATABASE_KEY_FILE");
        byte[] key = hasKey ? DatabaseKey.fromEnvironment(env) : OFFLINE_KEY;
        HookEngine engine = new HookEngine(BuiltInControllers.all(key, env), Clock.systemUTC());
        if (!engine.controllers().names().contains(name)) {
            throw new UsageException("no built-in controller serves " + spec.name() + " (its sync hook points at /" + name
                    + "/...); built in: " + engine.controllers().names() + " (" + BuiltInControllers.EXAMPLES
                    + "=true adds Metacontroller's examples); give --url to call a hook elsewhere");
        }
        return new InProcessHook(engine, name);
    }

    /** The controller a manifest's sync URL names: {@code http://metahook.metahook-system/webapp/sync} is webapp. */
    private static String builtInName(ControllerSpec spec) {
        String url = spec.hooks().get("sync").url();
        String path = url == null ? "" : URI.create(url).getPath();
        String[] segments = path.split("/");
        return segments.length > 1 ? segments[1] : "";
    }
}
