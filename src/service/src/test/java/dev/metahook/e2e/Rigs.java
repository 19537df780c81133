package dev.metahook.e2e;

import dev.metahook.internal.sim.KubernetesVersion;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The rigs of one test run, each started when a test class first asks for it and stopped when the run ends, so that
 * every class of the suite shares one API server of each version. On the local rig the suite runs against two real
 * API servers, the newest and the oldest minor the simulator models ({@link KubernetesVersion#NEWEST},
 * {@link KubernetesVersion#OLDEST}); on a cluster ({@value Rig#KUBECONFIG}), against the cluster's. A class gets them with {@code @ExtendWith(Rigs.Resolver.class)}
 * and a parameter of type {@code Rigs}.
 */
final class Rigs implements AutoCloseable {
    private final Map<String, Rig> started = new LinkedHashMap<>();

    /** The versions the suite runs against, newest first: on a cluster its own, else {@link #localVersions()}. */
    static List<KubernetesVersion> versions() throws Exception {
        Optional<Path> kubeconfig = clusterKubeconfig();
        if (kubeconfig.isEmpty()) {
            return localVersions();
        }
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(kubeconfig.get()))).build()) {
            // a managed cluster may say "32+"
            return List.of(new KubernetesVersion(Integer.parseInt(client.getKubernetesVersion().getMinor().replaceAll("\\D", ""))));
        }
    }

    /** The versions of the local rig's API servers, newest first: the newest and the oldest minor the simulator models. */
    static List<KubernetesVersion> localVersions() {
        return List.of(KubernetesVersion.NEWEST, KubernetesVersion.OLDEST);
    }

    /** The rig of this version ({@link #versions()}): the cluster's, or the local rig's. */
    Rig of(KubernetesVersion version) throws Exception {
        Optional<Path> kubeconfig = clusterKubeconfig();
        return kubeconfig.isPresent() ? started("cluster", () -> ClusterRig.start(kubeconfig.get())) : local(version);
    }

    /** The local rig with the API server of this version, whether or not the suite runs on a cluster. */
    Rig local(KubernetesVersion version) throws Exception {
        return started("local " + version, () -> LocalRig.start(version));
    }

    private synchronized Rig started(String key, Callable<Rig> start) throws Exception {
        Rig rig = started.get(key);
        if (rig == null) {
            rig = start.call();
            started.put(key, rig);
        }
        return rig;
    }

    private static Optional<Path> clusterKubeconfig() {
        String kubeconfig = System.getenv(Rig.KUBECONFIG);
        return kubeconfig == null || kubeconfig.isBlank() ? Optional.empty() : Optional.of(Path.of(kubeconfig));
    }

    @Override
    public synchronized void close() throws Exception {
        List<Exception> failures = new ArrayList<>();
        for (Rig rig : started.values()) {
            try {
                rig.close();
            } catch (Exception e) {
                failures.add(e);
            }
        }
        started.clear();
        if (!failures.isEmpty()) {
            failures.subList(1, failures.size()).forEach(failures.get(0)::addSuppressed);
            throw failures.get(0);
        }
    }

    /** Gives a test class the run's rigs, kept in the root context's store, which closes them when the run ends. */
    static final class Resolver implements ParameterResolver {
        @Override
        public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
            return parameter.getParameter().getType() == Rigs.class;
        }

        @Override
        public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
            return context.getRoot().getStore(ExtensionContext.Namespace.create(Rigs.class))
                    .getOrComputeIfAbsent(Rigs.class, key -> new Rigs(), Rigs.class);
        }
    }
}
