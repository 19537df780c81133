package dev.metahook.internal.server;

import dev.metahook.api.Controllers;
import dev.metahook.internal.engine.HookAnswer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jetty.JettyConnectionMetrics;
import io.micrometer.core.instrument.binder.jetty.JettyServerThreadPoolMetrics;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.util.thread.ThreadPool;

/**
 * The service's Prometheus metrics: hook calls by controller, hook, outcome and status code with a
 * latency histogram up to Metacontroller's 10 s timeout; calls in flight; children per answer; guard
 * refusals; 304s; JVM and process; Jetty's request threads and the hook listener's connections;
 * {@code metahook_build_info}. Labels come from bounded sets only, never
 * from a parent. The meters live in a composite registry: {@code /metrics} scrapes the Prometheus one
 * inside it always, and a user's own registry (OTLP, Datadog, a shared one) is added beside it.
 */
final class HookMetrics {
    private static final Duration[] LATENCY_BUCKETS = {Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5),
            Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
            Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10)};
    private static final double[] CHILDREN_BUCKETS = {1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 5000};
    private static final Set<String> HOOKS = Set.of("sync", "finalize", "customize");
    /** The outcome of a hook's answered call, the series each route starts with. */
    private static final Map<String, String> ANSWERED = Map.of("sync", "synced", "finalize", "finalized", "customize", "customized");

    private final PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final CompositeMeterRegistry registry = new CompositeMeterRegistry();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Calls calls = new Calls(registry);
    private final Set<String> controllers;
    /** The warm-up's calls, recorded apart from the served ones, made on the first warm-up call. */
    private volatile Calls rehearsals;

    HookMetrics(Controllers controllers) {
        this(controllers, null);
    }

    /**
     * With {@code also}, a registry of the service's own, added before any meter so it gets each as it is made.
     * Each route's calls and refusals are on {@code /metrics} from the start, at zero, so a dashboard shows a rate
     * of zero rather than no data until the first call.
     */
    HookMetrics(Controllers controllers, MeterRegistry also) {
        this.controllers = Set.copyOf(controllers.names());
        registry.add(prometheus);
        if (also != null) {
            registry.add(also);
        }
        // Micrometer counts bytes only on a traffic-listening connector, which would cost every read and write: not made
        registry.config().meterFilter(MeterFilter.denyNameStartsWith("jetty.connections.bytes"));
        controllers.names().forEach(name -> controllers.hooks(name).forEach(hook -> calls.expect(name, hook.segment())));
        Gauge.builder("metahook.build.info", () -> 1)
                .description("The metahook version and the Java version the service runs on; always 1")
                .tags("version", version(), "java_version", System.getProperty("java.version", "unknown")).register(registry);
        Gauge.builder("metahook.hook.in.flight", inFlight, AtomicInteger::get)
                .description("Hook calls being answered").register(registry);
        // the process's meters on /metrics only: a registry of the service's own (Boot's) binds its own, and two
        // bindings of one gauge make Micrometer warn at every start
        new JvmMemoryMetrics().bindTo(prometheus);
        new JvmGcMetrics().bindTo(prometheus);
        new JvmThreadMetrics().bindTo(prometheus);
        new ClassLoaderMetrics().bindTo(prometheus);
        new ProcessorMetrics().bindTo(prometheus);
        new UptimeMetrics().bindTo(prometheus);
        new FileDescriptorMetrics().bindTo(prometheus);
    }

    /**
     * The registry the meters go to: a composite whose Prometheus registry {@code /metrics} serves, a
     * service's own meters go here too, and a user's registry is added to it
     * ({@link CompositeMeterRegistry#add}: every meter, those made already included, also goes there).
     */
    MeterRegistry registry() {
        return registry;
    }

    /**
     * metahook's version: from the {@code pom.properties} Maven puts in its jar, else the jar manifest's
     * {@code Implementation-Version}, else {@code unknown} (run from classes, as in an IDE).
     */
    static String version() {
        try (java.io.InputStream in = HookMetrics.class.getResourceAsStream("/META-INF/maven/dev.metahook/metahook/pom.properties")) {
            if (in != null) {
                java.util.Properties properties = new java.util.Properties();
                properties.load(in);
                String version = properties.getProperty("version");
                if (version != null && !version.isBlank()) {
                    return version.trim();
                }
            }
        } catch (java.io.IOException e) {
            // fall through to the manifest
        }
        String version = HookMetrics.class.getPackage().getImplementationVersion();
        return version == null || version.isBlank() ? "unknown" : version;
    }

    /** Jetty's request threads: configured, current, busy, idle, and jobs waiting for one. */
    void threads(ThreadPool pool) {
        new JettyServerThreadPoolMetrics(pool, List.of()).bindTo(registry);
    }

    /**
     * The HTTP connections of a listener, made before it starts: open now, most in two minutes, and how long each
     * lasted, on {@code /metrics} from the start. Tracked on its HTTP factory, so that a TLS connection counts once.
     */
    void connections(Connector listener) {
        listener.getConnectionFactory(HttpConnectionFactory.class).addBean(new JettyConnectionMetrics(registry, listener));
        Timer.builder("jetty.connections.request").description("Jetty client or server requests")
                .tags("type", "server", "connector.name", listener.getName()).register(registry);
    }

    void started() {
        inFlight.incrementAndGet();
    }

    /** A call's response is written: it is not in flight any more. */
    void done() {
        inFlight.decrementAndGet();
    }

    /** Records one finished call; {@code status} is what went on the wire (304 included). */
    void finished(String controller, String hook, HookAnswer answer, int status, Duration took) {
        calls.record(key(controller, hook, answer, status), answer, took);
    }

    /**
     * Records a warm-up call as {@link #finished} records a served one, in a registry of its own that
     * {@code /metrics} never shows: the first served call finds the meter classes loaded and their code
     * run, and nothing is counted that Metacontroller did not call.
     */
    void rehearsed(String controller, String hook, HookAnswer answer, int status, Duration took) {
        Calls warmUp = rehearsals;
        if (warmUp == null) {
            synchronized (this) {
                if (rehearsals == null) {
                    CompositeMeterRegistry apart = new CompositeMeterRegistry();
                    apart.add(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
                    rehearsals = new Calls(apart);
                }
                warmUp = rehearsals;
            }
        }
        warmUp.record(key(controller, hook, answer, status), answer, took);
    }

    private CallKey key(String controller, String hook, HookAnswer answer, int status) {
        return new CallKey(controllers.contains(controller) ? controller : "unknown", HOOKS.contains(hook) ? hook : "unknown",
                answer.outcome(), status);
    }

    /** The labels of one kind of call; every value comes from a bounded set. */
    private record CallKey(String controller, String hook, String outcome, int status) {
    }

    /** The meters one kind of call updates, looked up in the registry once rather than on every call. */
    private record CallMeters(Timer requests, DistributionSummary observed, DistributionSummary desired, Counter refused,
                              Counter notModified) {
    }

    /** The Prometheus text exposition. */
    String scrape() {
        return prometheus.scrape();
    }

    /** The meters of each kind of call in one registry, made the first time such a call is recorded. */
    private static final class Calls {
        private final MeterRegistry registry;
        private final Map<CallKey, CallMeters> meters = new ConcurrentHashMap<>();

        Calls(MeterRegistry registry) {
            this.registry = registry;
        }

        /** Makes a route's meters before its first call: its answered calls and its refusals, both at zero. */
        void expect(String controller, String hook) {
            meters.computeIfAbsent(new CallKey(controller, hook, ANSWERED.get(hook), 200), this::meters);
            refused(controller, hook);
        }

        void record(CallKey key, HookAnswer answer, Duration took) {
            CallMeters call = meters.computeIfAbsent(key, this::meters);
            call.requests().record(took);
            call.observed().record(answer.facts().observed());
            if (answer.status() == 200) {
                call.desired().record(answer.facts().desired());
            }
            if ("response-refused".equals(answer.outcome())) {
                call.refused().increment();
            }
            if (key.status() == 304) {
                call.notModified().increment();
            }
        }

        private CallMeters meters(CallKey key) {
            Timer requests = Timer.builder("metahook.hook.requests").description("Hook calls and how long they took")
                    .tags("controller", key.controller(), "hook", key.hook(), "outcome", key.outcome(),
                            "code", Integer.toString(key.status()))
                    .serviceLevelObjectives(LATENCY_BUCKETS)
                    .register(registry);
            Counter refused = "response-refused".equals(key.outcome()) ? refused(key.controller(), key.hook()) : null;
            Counter notModified = key.status() == 304 ? Counter.builder("metahook.hook.not.modified")
                    .description("Answers replaced by 304 Not Modified")
                    .tags("controller", key.controller(), "hook", key.hook()).register(registry) : null;
            return new CallMeters(requests, children("observed", key.controller(), key.hook()),
                    children("desired", key.controller(), key.hook()), refused, notModified);
        }

        private Counter refused(String controller, String hook) {
            return Counter.builder("metahook.hook.refused").description("Answers the guards refused to send")
                    .tags("controller", controller, "hook", hook).register(registry);
        }

        private DistributionSummary children(String kind, String controller, String hook) {
            return DistributionSummary.builder("metahook.hook.children").description("Children per call, observed and desired")
                    .tags("controller", controller, "hook", hook, "kind", kind).serviceLevelObjectives(CHILDREN_BUCKETS)
                    .register(registry);
        }
    }
}
