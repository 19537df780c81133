package dev.metahook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.testing.Scrapes;
import dev.metahook.testing.TestServer;
import dev.metahook.internal.wire.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code check} against metahook's own controllers (clean) and against hooks broken one way each (reported). */
class CheckCommandTest {
    private static final String PARENT = """
            apiVersion: test.metahook.dev/v1
            kind: Widget
            metadata: {name: hello, namespace: default}
            spec: {size: 3}
            """;

    /**
     * A hook's speed is measured, not simulated: it is the same on every Kubernetes version, so the tests of slow and
     * silent hooks check one version, and wait for the hook once rather than once per span of versions.
     */
    private static final String ONE_VERSION = "1.37";

    @TempDir
    Path dir;

    private String file(String name, String text) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file.toString();
    }

    private String controller(String extra, boolean generateSelector) throws Exception {
        return file("controller.yaml", """
                apiVersion: metacontroller.k8s.io/v1alpha1
                kind: CompositeController
                metadata: {name: widget-controller}
                spec:
                  generateSelector: %s
                  parentResource: {apiVersion: test.metahook.dev/v1, resource: widgets}
                  childResources:
                  - {apiVersion: v1, resource: configmaps, updateStrategy: {method: InPlace}}
                  hooks:
                    sync: {webhook: {url: http://widgets.example/sync%s}}
                    finalize: {webhook: {url: http://widgets.example/finalize%s}}
                """.formatted(generateSelector, extra, extra));
    }

    private record Result(int exit, String output) {
        List<String> breaches() {
            return output.lines().filter(line -> line.startsWith("BREACH ")).toList();
        }

        Set<String> kinds() {
            return breaches().stream().map(line -> line.substring("BREACH ".length(), line.indexOf(':'))).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private Result check(Function<JsonNode, ScriptedHook.Answer> script) throws Exception {
        return check(script, controller("", true), PARENT);
    }

    private Result check(Function<JsonNode, ScriptedHook.Answer> script, String controller, String parent) throws Exception {
        try (ScriptedHook hook = new ScriptedHook(script)) {
            return run(List.of("--controller", controller, "--parent", file("parent.yaml", parent), "--url", hook.url(), "--passes", "8"));
        }
    }

    private static Result run(List<String> args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = Main.exitCode(() -> CheckCommand.run(args, Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8)));
        return new Result(exit, out.toString(StandardCharsets.UTF_8));
    }

    /** The run failed with exactly these kinds of breach: one missed or one more reported fails the test. */
    private static void reports(Result result, String... kinds) {
        assertEquals(1, result.exit(), result.output());
        assertEquals(new TreeSet<>(List.of(kinds)), result.kinds(), result.output());
    }

    @Test
    void aWellBehavedHookInAnotherLanguageIsClean() throws Exception {
        Result result = check(request -> ScriptedHook.Answer.ok(ScriptedHook.wellBehaved(request)));
        assertEquals(0, result.exit(), result.output());
        assertTrue(result.output().startsWith("check: clean ("), result.output());
    }

    @Test
    void metahooksOwnControllersAreCleanOverHttp() throws Exception {
        try (TestServer server = TestServer.start(BuiltInControllers.all("a key for the check command test".getBytes()))) {
            String webAppV2 = file("webapp-v2.yaml", Files.readString(Path.of("examples/webapp.yaml")).replace("1.4.2", "1.5.0"));
            Result webApp = run(List.of("--controller", "metacontroller/webapp-controller.yaml", "--parent", "examples/webapp.yaml",
                    "--updated-parent", webAppV2, "--url", server.url("")));
            assertEquals(0, webApp.exit(), webApp.output());
            Result database = run(List.of("--controller", "metacontroller/database-controller.yaml", "--parent", "examples/database.yaml",
                    "--url", server.url("")));
            assertEquals(0, database.exit(), database.output());
            // each check closed the connection it kept alive: the server holds the scrape's own connection alone
            String alone = "jetty_connections_current_connections{connector_name=\"hook\"} 1.0";
            assertTrue(Scrapes.showing(server.port(), alone).contains(alone), Scrapes.of(server.port()));
        }
    }

    @Test
    void anUpdatedParentNamingAnotherObjectIsAClearErrorNotACrash() throws Exception {
        try (TestServer server = TestServer.start(BuiltInControllers.all("a key for the check command test".getBytes()))) {
            String other = file("webapp-other.yaml", Files.readString(Path.of("examples/webapp.yaml"))
                    .replaceFirst("(?m)^  name: .*$", "  name: another-webapp"));
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            PrintStream stderr = System.err;
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            Result result;
            try {
                result = run(List.of("--controller", "metacontroller/webapp-controller.yaml", "--parent", "examples/webapp.yaml",
                        "--updated-parent", other, "--url", server.url("")));
            } finally {
                System.setErr(stderr);
            }
            assertEquals(2, result.exit(), result.output());
            String message = err.toString(StandardCharsets.UTF_8);
            assertTrue(message.contains("the updated parent is") && message.contains("another-webapp")
                    && message.contains("a spec change edits the same object"), message);
        }
    }

    @Test
    void anUpdatedParentWithoutANamespaceEditsTheParent() throws Exception {
        try (TestServer server = TestServer.start(BuiltInControllers.all("a key for the check command test".getBytes()))) {
            String webAppV2 = file("webapp-v2-no-namespace.yaml", Files.readString(Path.of("examples/webapp.yaml"))
                    .replace("1.4.2", "1.5.0").replaceFirst("(?m)^  namespace: .*\\R", ""));
            assertFalse(webAppV2.contains("namespace:"), webAppV2);
            Result result = run(List.of("--controller", "metacontroller/webapp-controller.yaml", "--parent", "examples/webapp.yaml",
                    "--updated-parent", webAppV2, "--url", server.url("")));
            assertEquals(0, result.exit(), result.output());
        }
    }

    @Test
    void reportsNonDeterministicOutput() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        reports(check(request -> {
            ObjectNode answer = ScriptedHook.wellBehaved(request);
            answer.withObjectProperty("status").put("lastSync", "call-" + calls.incrementAndGet());
            return ScriptedHook.Answer.ok(answer);
        }), "non-deterministic", "hot-loop");
    }

    @Test
    void reportsAHotLoop() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        reports(check(request -> {
            ObjectNode answer = ScriptedHook.wellBehaved(request);
            answer.withObjectProperty("status").put("syncs", calls.incrementAndGet());
            return ScriptedHook.Answer.ok(answer);
        }), "hot-loop", "non-deterministic");
    }

    @Test
    void reportsAnAnswerThatDependsOnKeyOrder() throws Exception {
        reports(check(request -> {
            ObjectNode answer = ScriptedHook.wellBehaved(request);
            answer.withObjectProperty("status").put("firstField", request.fieldNames().next());
            return ScriptedHook.Answer.ok(answer);
        }), "non-deterministic");
    }

    @Test
    void reportsIntegersWrittenAsDecimals() throws Exception {
        reports(check(request -> new ScriptedHook.Answer(200,
                ScriptedHook.wellBehaved(request).toString().replace("\"configMaps\":0", "\"configMaps\":0.0")
                        .replace("\"configMaps\":1", "\"configMaps\":1.0"), 0)), "decimal");
    }

    @Test
    void reportsNullsInChildren() throws Exception {
        reports(check(request -> {
            ObjectNode answer = ScriptedHook.wellBehaved(request);
            answer.path("children").forEach(child -> ((ObjectNode) child).putNull("immutable"));
            return ScriptedHook.Answer.ok(answer);
        }), "null-value");
    }

    @Test
    void reportsAChildWithoutKind() throws Exception {
        reports(check(request -> {
            ObjectNode answer = ScriptedHook.wellBehaved(request);
            answer.path("children").forEach(child -> ((ObjectNode) child).remove("kind"));
            return ScriptedHook.Answer.ok(answer);
        }), "missing-kind", "no-progress");
    }

    @Test
    void reportsAChildWithoutApiVersion() throws Exception {
        reports(check(request -> {
            ObjectNode answer = ScriptedHook.wellBehaved(request);
            answer.path("children").forEach(child -> ((ObjectNode) child).remove("apiVersion"));
            return ScriptedHook.Answer.ok(answer);
        }), "missing-apiVersion", "no-progress");
    }

    @Test
    void reportsNoProgressWhenNoSyncCallSucceeds() throws Exception {
        Result result = check(request -> new ScriptedHook.Answer(500, "{\"error\":\"always\"}", 0));
        reports(result, "status", "no-progress");
    }

    @Test
    void reportsLabelsThatMissTheSelector() throws Exception {
        String parent = PARENT.replace("spec: {size: 3}", "spec: {size: 3, selector: {matchLabels: {app: other}}}");
        reports(check(request -> ScriptedHook.Answer.ok(ScriptedHook.wellBehaved(request)), controller("", false), parent), "selector", "no-progress");
    }

    @Test
    void reportsAMisspelledChildrenKey() throws Exception {
        reports(check(request -> {
            ObjectNode answer = ScriptedHook.wellBehaved(request);
            answer.set("Children", answer.remove("children"));
            return ScriptedHook.Answer.ok(answer);
        }), "unknown-field");
    }

    @Test
    void reportsChildrenDeletedByAnOmission() throws Exception {
        reports(check(request -> {
            ObjectNode answer = ScriptedHook.wellBehaved(request);
            if (request.at("/children/ConfigMap.v1").size() > 0 && !request.path("finalizing").asBoolean()) {
                answer.putArray("children");
            }
            return ScriptedHook.Answer.ok(answer);
        }), "deletes-children", "hot-loop");
    }

    @Test
    void reportsFinalizedOutsideFinalize() throws Exception {
        reports(check(request -> ScriptedHook.Answer.ok(ScriptedHook.wellBehaved(request).put("finalized", true))), "finalized-in-sync", "hot-loop");
    }

    @Test
    void reportsAFinalizeThatNeverFinishes() throws Exception {
        reports(check(request -> ScriptedHook.Answer.ok(ScriptedHook.wellBehaved(request).put("finalized", false))), "never-finalized");
    }

    @Test
    void reportsErrorStatusCodes() throws Exception {
        reports(check(request -> request.path("finalizing").asBoolean()
                ? new ScriptedHook.Answer(500, "{\"error\":\"boom\"}", 0)
                : ScriptedHook.Answer.ok(ScriptedHook.wellBehaved(request))), "status", "never-finalized");
    }

    @Test
    void reportsAnswersSlowerThanTheTimeout() throws Exception {
        String slow = controller("", true);
        Files.writeString(Path.of(slow), Files.readString(Path.of(slow)).replace("/sync}}", "/sync, timeout: 1s}}"));
        try (ScriptedHook hook = new ScriptedHook(request -> new ScriptedHook.Answer(200, ScriptedHook.wellBehaved(request).toString(), 1100))) {
            Result slowAnswers = run(List.of("--controller", slow, "--parent", file("p.yaml", PARENT), "--url", hook.url(), "--passes", "3",
                    "--kubernetes-version", ONE_VERSION));
            // Metacontroller's client gives up at the timeout: no answer is applied, so the parent never gets anywhere
            reports(slowAnswers, "too-slow", "no-progress");
            assertTrue(slowAnswers.output().contains("more than the 1000 ms Metacontroller waits"), slowAnswers.output());
        }
    }

    @Test
    void aHookRepeatablySlowerThanItsTimeoutIsCaughtAndTheFlagOverridesTheControllers() throws Exception {
        String slow = controller("", true);
        Files.writeString(Path.of(slow), Files.readString(Path.of(slow)).replace("/sync}}", "/sync, timeout: 30s}}"));
        try (ScriptedHook hook = new ScriptedHook(request -> new ScriptedHook.Answer(200, ScriptedHook.wellBehaved(request).toString(), 400))) {
            Result slowAnswers = run(List.of("--controller", slow, "--parent", file("p.yaml", PARENT), "--url", hook.url(), "--passes", "3",
                    "--timeout", "150ms", "--kubernetes-version", ONE_VERSION));
            reports(slowAnswers, "too-slow", "no-progress");
            assertTrue(slowAnswers.output().contains("more than the 150 ms Metacontroller waits"), slowAnswers.output());
        }
    }

    @Test
    void oneSlowCallIsNotABreachWhenTheSameRequestIsFastAgain() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        try (ScriptedHook hook = new ScriptedHook(request -> new ScriptedHook.Answer(200, ScriptedHook.wellBehaved(request).toString(),
                calls.getAndIncrement() == 0 ? 600 : 0))) {
            Result result = run(List.of("--controller", controller("", true), "--parent", file("p.yaml", PARENT), "--url", hook.url(),
                    "--passes", "4", "--timeout", "300ms"));
            assertEquals(0, result.exit(), result.output());
        }
    }

    @Test
    void aCleanHookIsCleanUnderCpuStress() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> busy = new ArrayList<>();
        for (int i = 0; i < 2 * Runtime.getRuntime().availableProcessors(); i++) {
            Thread thread = new Thread(() -> {
                long spin = 0;
                while (!stop.get()) {
                    spin = spin * 31 + 7;
                }
                if (spin == 42) {
                    System.out.print("");
                }
            }, "busy-" + i);
            thread.setDaemon(true);
            thread.start();
            busy.add(thread);
        }
        try {
            for (int run = 0; run < 3; run++) {
                Result http = check(request -> ScriptedHook.Answer.ok(ScriptedHook.wellBehaved(request)));
                assertEquals(0, http.exit(), http.output());
            }
            Result inProcess = run(List.of("--controller", "metacontroller/webapp-controller.yaml", "--parent", "examples/webapp.yaml",
                    "--timeout", "1ms"));
            assertEquals(0, inProcess.exit(), inProcess.output());
        } finally {
            stop.set(true);
            for (Thread thread : busy) {
                thread.join();
            }
        }
    }

    @Test
    void aTimeoutThatIsNoDurationIsAUsageError() throws Exception {
        Result result = run(List.of("--controller", "metacontroller/webapp-controller.yaml", "--parent", "examples/webapp.yaml",
                "--timeout", "soon"));
        assertEquals(2, result.exit(), result.output());
    }

    @Test
    void reportsAHookThatNeverAnswersOnceTheClientGivesUp() throws Exception {
        String slow = controller("", true);
        Files.writeString(Path.of(slow), Files.readString(Path.of(slow)).replace("/sync}}", "/sync, timeout: 1s}}"));
        try (ScriptedHook hook = new ScriptedHook(request -> new ScriptedHook.Answer(200, ScriptedHook.wellBehaved(request).toString(), 9000))) {
            Result timedOut = run(List.of("--controller", slow, "--parent", file("p.yaml", PARENT), "--url", hook.url(), "--passes", "2",
                    "--kubernetes-version", ONE_VERSION));
            reports(timedOut, "no-answer", "no-progress");
            assertTrue(timedOut.output().contains("timed out after 6 s"), timedOut.output());
        }
    }

    /**
     * A StatefulSet controller written in no framework: drain on delete, then a backup ConfigMap, then done. Its claim
     * template's metadata has {@code "creationTimestamp": null} in sync when {@code syncNull}, in finalize when
     * {@code finalizeNull}: the form Kubernetes 1.33 and older store, or (without) the form 1.34 and newer store.
     */
    private Result checkStatefulSetTeardown(boolean syncNull, boolean finalizeNull, String... options) throws Exception {
        String controller = file("statefulset-controller.yaml", """
                apiVersion: metacontroller.k8s.io/v1alpha1
                kind: CompositeController
                metadata: {name: store-controller}
                spec:
                  generateSelector: true
                  parentResource: {apiVersion: test.metahook.dev/v1, resource: widgets}
                  childResources:
                  - {apiVersion: apps/v1, resource: statefulsets, updateStrategy: {method: InPlace}}
                  - {apiVersion: v1, resource: configmaps}
                  hooks:
                    sync: {webhook: {url: http://stores.example/sync}}
                    finalize: {webhook: {url: http://stores.example/finalize}}
                """);
        try (ScriptedHook hook = new ScriptedHook(request -> statefulSetAnswer(request, syncNull, finalizeNull))) {
            List<String> args = new java.util.ArrayList<>(List.of("--controller", controller, "--parent", file("parent.yaml", PARENT),
                    "--url", hook.url(), "--passes", "8"));
            args.addAll(List.of(options));
            return run(args);
        }
    }

    private static ScriptedHook.Answer statefulSetAnswer(JsonNode request, boolean syncNull, boolean finalizeNull) {
        boolean finalizing = request.path("finalizing").asBoolean();
        JsonNode observed = request.at("/children/StatefulSet.apps~1v1/hello");
        boolean drained = finalizing && observed.at("/spec/replicas").asInt(-1) == 0;
        ObjectNode answer = Json.object();
        ObjectNode set = answer.putArray("children").addObject().put("apiVersion", "apps/v1").put("kind", "StatefulSet");
        set.putObject("metadata").put("name", "hello");
        ObjectNode spec = set.putObject("spec").put("replicas", finalizing ? 0 : 1).put("serviceName", "hello");
        spec.putObject("selector").putObject("matchLabels").put("app", "store");
        ObjectNode template = spec.putObject("template");
        template.putObject("metadata").putObject("labels").put("app", "store");
        template.putObject("spec").putArray("containers").addObject().put("name", "db").put("image", "postgres:16");
        ObjectNode claim = spec.putArray("volumeClaimTemplates").addObject().put("apiVersion", "v1").put("kind", "PersistentVolumeClaim");
        ObjectNode claimMetadata = claim.putObject("metadata");
        if (finalizing ? finalizeNull : syncNull) {
            claimMetadata.putNull("creationTimestamp");
        }
        claimMetadata.put("name", "data");
        claim.putObject("spec").put("volumeMode", "Filesystem").putArray("accessModes").add("ReadWriteOnce");
        claim.withObjectProperty("spec").putObject("resources").putObject("requests").put("storage", "1Gi");
        claim.putObject("status").put("phase", "Pending");
        boolean backedUp = request.at("/children/ConfigMap.v1/hello-backup").isObject();
        if (drained) {
            ObjectNode backup = answer.withArray("children").addObject().put("apiVersion", "v1").put("kind", "ConfigMap");
            backup.putObject("metadata").put("name", "hello-backup");
            backup.putObject("data").put("archive", "hello.tar.gz");
        }
        answer.putObject("status").put("phase", !finalizing ? "Ready" : drained ? "BackingUp" : "Draining");
        if (finalizing) {
            answer.put("finalized", backedUp);
        }
        return ScriptedHook.Answer.ok(answer);
    }

    @Test
    void aHookThatAlwaysWritesTheNullOfOlderServersNeedlesslyUpdatesFrom134Only() throws Exception {
        Result withNull = checkStatefulSetTeardown(true, true);
        reports(withNull, "needless-update on Kubernetes 1.34-1.37");
        assertTrue(withNull.output().contains("StatefulSet default/hello")
                && withNull.output().contains("/spec/volumeClaimTemplates/0/metadata/creationTimestamp (absent vs null)"), withNull.output());
        assertTrue(withNull.output().endsWith("checked on Kubernetes 1.29-1.37, Metacontroller v4.17.2\n"), withNull.output());
    }

    @Test
    void aHookThatNeverWritesTheNullNeedlesslyUpdatesUpTo133Only() throws Exception {
        Result withoutNull = checkStatefulSetTeardown(false, false);
        reports(withoutNull, "needless-update on Kubernetes 1.29-1.33");
        assertTrue(withoutNull.output().contains("/spec/volumeClaimTemplates/0/metadata/creationTimestamp (null vs absent)"),
                withoutNull.output());
    }

    @Test
    void oneKubernetesVersionChecksThatVersionAlone() throws Exception {
        Result on133 = checkStatefulSetTeardown(true, true, "--kubernetes-version", "1.33");
        assertEquals(0, on133.exit(), on133.output());
        assertTrue(on133.output().endsWith("checked on Kubernetes 1.33, Metacontroller v4.17.2\n"), on133.output());
        Result on134 = checkStatefulSetTeardown(true, true, "--kubernetes-version", "v1.34.2");
        reports(on134, "needless-update");
        Result tooOld = checkStatefulSetTeardown(true, true, "--kubernetes-version", "1.28");
        assertEquals(2, tooOld.exit(), tooOld.output());
    }

    @Test
    void reportsAnUpdateNobodyAskedForOnTheWaitingStepsOfFinalizeOnTheVersionsItHoldsOn() throws Exception {
        // sync writes the form up to 1.33 stores, finalize the form from 1.34: each is needless on the versions of the other
        Result mixed = checkStatefulSetTeardown(true, false);
        reports(mixed, "needless-update on Kubernetes 1.34-1.37",
                "needless-update on Kubernetes 1.29-1.33");
        assertTrue(mixed.breaches().stream().anyMatch(line -> line.startsWith("BREACH needless-update on Kubernetes 1.29-1.33: finalize (delete)")),
                mixed.output());
        assertTrue(mixed.breaches().stream().anyMatch(line -> line.startsWith("BREACH needless-update on Kubernetes 1.34-1.37: sync (create)")),
                mixed.output());
    }

    private static final String CAPTURED = "src/test-support/src/main/resources/fixtures/captured/";

    @Test
    void theRestOfACapturedTeardownIsCleanUnderMetahooksDatabase() {
        Result drain = run(List.of("--controller", "metacontroller/database-controller.yaml",
                "--request", CAPTURED + "v1.5.14-database-finalize-drain.request.json"));
        assertEquals(0, drain.exit(), drain.output());
    }

    @Test
    void theAnswerMetahook010GaveOnTheRealClusterIsReportedForTheServersThatStoreTheNull() throws Exception {
        // captured on Kubernetes 1.20, which stores the null 0.1.0's answer lacked: an update on every call there, as up to 1.33
        JsonNode captured = Json.parse(Files.readAllBytes(Path.of(CAPTURED + "v1.5.14-metahook-database-finalize-backingup.response.json")));
        try (ScriptedHook hook = new ScriptedHook(request -> {
            ObjectNode answer = captured.deepCopy();
            answer.put("finalized", request.at("/children/Job.batch~1v1/orders-final-backup/status/succeeded").asInt() > 0);
            return ScriptedHook.Answer.ok(answer);
        })) {
            Result replayed = run(List.of("--controller", "metacontroller/database-controller.yaml",
                    "--request", CAPTURED + "v1.5.14-metahook-database-finalize-backingup.request.json", "--url", hook.url()));
            reports(replayed, "needless-update on Kubernetes 1.29-1.33");
            assertTrue(replayed.output().contains("StatefulSet default/orders"), replayed.output());
        }
    }

    @Test
    void metahooksDatabaseFinishesACapturedTeardownCleanWhicheverFormItsAnnotationHas() throws Exception {
        String request = Files.readString(Path.of(CAPTURED + "v1.5.14-metahook-database-finalize-backingup.request.json"));
        String annotationWithout = "\\\"metadata\\\":{\\\"name\\\":\\\"data\\\"}";
        String annotationWith = "\\\"metadata\\\":{\\\"creationTimestamp\\\":null,\\\"name\\\":\\\"data\\\"}";
        assertTrue(request.contains(annotationWithout), "the captured annotation lacks the null");
        String withNull = file("with-null.request.json", request.replace(annotationWithout, annotationWith));
        Result fromWith = run(List.of("--controller", "metacontroller/database-controller.yaml", "--request", withNull));
        assertEquals(0, fromWith.exit(), fromWith.output());

        // the claim template is answered in the form the observed StatefulSet stores, whatever the annotation says
        Result asCaptured = run(List.of("--controller", "metacontroller/database-controller.yaml",
                "--request", CAPTURED + "v1.5.14-metahook-database-finalize-backingup.request.json"));
        assertEquals(0, asCaptured.exit(), asCaptured.output());
    }

    /** The well-behaved answer with a second ConfigMap, the two listed in another order on every other call. */
    private static Function<JsonNode, ScriptedHook.Answer> twoChildrenInTurningOrder() {
        AtomicInteger calls = new AtomicInteger();
        return request -> {
            ObjectNode answer = ScriptedHook.wellBehaved(request);
            if (!request.path("finalizing").asBoolean()) {
                ObjectNode second = answer.withArray("children").get(0).deepCopy();
                second.withObjectProperty("metadata").put("name", request.at("/parent/metadata/name").asText() + "-b");
                if (calls.incrementAndGet() % 2 == 0) {
                    answer.withArray("children").add(second);
                } else {
                    answer.withArray("children").insert(0, second);
                }
            }
            return ScriptedHook.Answer.ok(answer);
        };
    }

    @Test
    void childrenInAnotherOrderAreTheSameAnswerUnlessTheyRoll() throws Exception {
        Result inPlace = check(twoChildrenInTurningOrder());
        assertEquals(0, inPlace.exit(), "Metacontroller keys children by name: " + inPlace.output());

        String rolling = controller("", true);
        Files.writeString(Path.of(rolling), Files.readString(Path.of(rolling)).replace("method: InPlace", "method: RollingInPlace"));
        Result rolled = check(twoChildrenInTurningOrder(), rolling, PARENT);
        reports(rolled, "non-deterministic");
        assertTrue(rolled.output().contains("lists the RollingInPlace children ConfigMap.v1 in another order")
                && rolled.output().contains("Metacontroller rolls them one at a time in the answer's order"), rolled.output());
    }

    @Test
    void nullLabelsOrAnnotationsOnAChildAreReportedNotACrash() throws Exception {
        Result nullLabels = check(request -> {
            ObjectNode answer = ScriptedHook.wellBehaved(request);
            answer.path("children").forEach(child -> ((ObjectNode) child.path("metadata")).putNull("labels"));
            return ScriptedHook.Answer.ok(answer);
        });
        reports(nullLabels, "null-value", "no-progress");
        assertTrue(nullLabels.output().contains("/metadata/labels is null: Metacontroller fails the whole sync (invalid labels on desired"
                + " child) and applies no child"), nullLabels.output());

        Result nullAnnotations = check(request -> {
            ObjectNode answer = ScriptedHook.wellBehaved(request);
            answer.path("children").forEach(child -> ((ObjectNode) child.path("metadata")).putNull("annotations"));
            return ScriptedHook.Answer.ok(answer);
        });
        reports(nullAnnotations, "null-value");
        assertTrue(nullAnnotations.output().contains("/metadata/annotations is null: Metacontroller replaces it with its own annotations"),
                nullAnnotations.output());
    }

    @Test
    void takesTheControllerFromAFileWithOtherObjects() throws Exception {
        String single = Files.readString(Path.of(controller("", true)));
        String crd = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.test.metahook.dev}\n"
                + "spec: {group: test.metahook.dev}\n";
        String deployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: widget-hooks, namespace: hooks}\nspec: {replicas: 1}\n";
        String bundle = file("bundle.yaml", crd + "---\n" + single + "---\n" + deployment);
        try (ScriptedHook hook = new ScriptedHook(request -> ScriptedHook.Answer.ok(ScriptedHook.wellBehaved(request)))) {
            Result picked = run(List.of("--controller", bundle, "--parent", file("parent.yaml", PARENT), "--url", hook.url(), "--passes", "8"));
            assertEquals(0, picked.exit(), picked.output());

            String two = file("two.yaml", single + "---\n" + single.replace("name: widget-controller", "name: other-controller"));
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            PrintStream saved = System.err;
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            try {
                assertEquals(2, run(List.of("--controller", two, "--parent", file("parent.yaml", PARENT), "--url", hook.url())).exit());
            } finally {
                System.setErr(saved);
            }
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("holds 2 controllers (CompositeController widget-controller,"
                    + " CompositeController other-controller): name one with --controller-name"), err.toString(StandardCharsets.UTF_8));
            Result named = run(List.of("--controller", two, "--controller-name", "other-controller", "--parent", file("parent.yaml", PARENT),
                    "--url", hook.url(), "--passes", "8"));
            assertEquals(0, named.exit(), named.output());
        }
    }

    @Test
    void anUnreachableHookSaysWhatFailed() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        Result refused = run(List.of("--controller", controller("", true), "--parent", file("parent.yaml", PARENT),
                "--url", "http://127.0.0.1:" + port, "--passes", "2"));
        reports(refused, "no-answer", "no-progress");
        assertTrue(refused.output().contains("http error: Post \"http://127.0.0.1:" + port + "/sync\": connection refused to 127.0.0.1:" + port),
                refused.output());
    }

    @Test
    void helpPrintsTheUsageAndExitsZero() throws Exception {
        for (String help : List.of("--help", "-h", "help")) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            PrintStream saved = System.out;
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            int exit;
            try {
                exit = Main.exitCode(() -> CheckCommand.run(List.of(help), Map.of(), saved));
            } finally {
                System.setOut(saved);
            }
            assertEquals(0, exit, help);
            assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("usage: java -jar metahook.jar check --controller"), out.toString());
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Main.class.getName(), "--help")
                .redirectErrorStream(true).start();
        try {
            assertTrue(process.waitFor(60, TimeUnit.SECONDS));
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, process.exitValue(), output);
            assertTrue(output.startsWith("usage: java -jar metahook.jar [serve | render ... | check ... | init ... | help]"), output);
        } finally {
            process.destroyForcibly();
        }
    }

    @Test
    void saysWhatIsWrongWithABadFileWithoutAStackTrace() throws Exception {
        Path none = dir.resolve("none.yaml");
        assertOneLine(List.of("--controller", "metacontroller/webapp-controller.yaml", "--parent", none.toString()),
                "metahook: " + none + ": no such file");
        String noName = file("noname.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n");
        assertOneLine(List.of("--controller", noName, "--parent", noName),
                "metahook: " + noName + ":1: expected metadata.name (a string) in this ConfigMap object");
        String broken = file("broken.yaml", "apiVersion: v1\nkind: [ConfigMap\n");
        assertOneLine(List.of("--controller", "metacontroller/webapp-controller.yaml", "--parent", broken),
                "metahook: " + broken + ":2: not valid YAML: while parsing a flow sequence");
        Process usage = main("check", "--controller", "metacontroller/webapp-controller.yaml");
        String said = new String(usage.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(usage.waitFor(60, java.util.concurrent.TimeUnit.SECONDS));
        assertEquals(2, usage.exitValue(), said);
        assertTrue(said.startsWith("metahook: --parent") && said.contains(CheckCommand.USAGE), said);
        assertFalse(said.contains("\tat ") || said.contains("Exception"), said);
    }

    /** {@code java ... check ARGS}: exit 2, nothing on stdout, and on stderr one line that starts as expected, no stack trace. */
    private static void assertOneLine(List<String> args, String starts) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("check"));
        command.addAll(args);
        Process process = main(command.toArray(String[]::new));
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS));
        assertEquals(2, process.exitValue(), err);
        assertEquals("", out);
        assertEquals(1, err.lines().count(), err);
        assertTrue(err.startsWith(starts), err);
        assertFalse(err.contains("\tat ") || err.contains("Exception"), err);
    }

    private static Process main(String... args) throws java.io.IOException {
        List<String> command = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).start();
    }
}
