package dev.metahook.maven;

import dev.metahook.api.Controllers;
import dev.metahook.manifests.ManifestOptions;
import dev.metahook.manifests.Manifests;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import org.apache.maven.artifact.DependencyResolutionRequiredException;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.apache.maven.project.MavenProject;

/**
 * Writes the kustomize directory and the Helm chart that run a project's controllers on a cluster, generated from their
 * registration:
 * the CompositeControllers and DecoratorControllers, the CRDs of their parent types, and the hook service's
 * Namespace, ServiceAccount, Deployment, Service, NetworkPolicy, PodDisruptionBudget and autoscaler for the image.
 * The registration is a public static method without parameters that returns the {@link Controllers} the service
 * serves, named as {@code CLASS#METHOD}; it runs on the project's compiled classes after they are built.
 */
@Mojo(name = "manifests", defaultPhase = LifecyclePhase.PROCESS_CLASSES, requiresDependencyResolution = ResolutionScope.RUNTIME,
        threadSafe = true)
public final class ManifestsMojo extends AbstractMojo {
    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    private MavenProject project;

    /** The registration: {@code com.example.GreetingService#controllers}, a public static method returning {@code Controllers}. */
    @Parameter(property = "metahook.controllers", required = true)
    private String controllers;

    /** The hook service's name: its Deployment, Service and container, and the first label of the hooks' host name. */
    @Parameter(property = "metahook.service", required = true)
    private String service;

    /** The namespace the hook service runs in; {@code SERVICE-system} unless set. */
    @Parameter(property = "metahook.namespace")
    private String namespace;

    /** The image the Deployment runs: {@code registry.example.com/greeting:1.0.0}, or pinned by digest. */
    @Parameter(property = "metahook.image", required = true)
    private String image;

    /** Secret keys the service reads as files (each an {@code env}, a {@code secret} and a {@code key}). */
    @Parameter
    private List<SecretFile> secretFiles = new ArrayList<>();

    /** The namespace Metacontroller runs in: the NetworkPolicy admits it to the hook port. */
    @Parameter(property = "metahook.metacontrollerNamespace", defaultValue = "metacontroller")
    private String metacontrollerNamespace;

    /** Labels of Metacontroller's pods in that namespace (all of its pods when none). */
    @Parameter
    private Map<String, String> metacontrollerPods = new HashMap<>();

    /** The namespace the metrics scraper (Prometheus) runs in: the NetworkPolicy admits it to the management port. */
    @Parameter(property = "metahook.monitoringNamespace", defaultValue = "monitoring")
    private String monitoringNamespace;

    /** Labels of the scraper's pods in that namespace (all of its pods when none). */
    @Parameter
    private Map<String, String> monitoringPods = new HashMap<>();

    /**
     * What to write, comma-separated: {@code kustomize} (the directory and its components), {@code helm} (the chart,
     * in {@code chart/} of the directory), or both.
     */
    @Parameter(property = "metahook.formats", defaultValue = "kustomize,helm")
    private String formats;

    /** Where the directory is written. */
    @Parameter(property = "metahook.outputDirectory", defaultValue = "${project.build.directory}/deploy")
    private File outputDirectory;

    /** Writes nothing. */
    @Parameter(property = "metahook.skip", defaultValue = "false")
    private boolean skip;

    @Override
    public void execute() throws MojoExecutionException {
        if (skip) {
            getLog().info("metahook: manifests skipped");
            return;
        }
        ManifestOptions options = options();
        Set<Manifests.Format> written = formats();
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(projectClassPath(), getClass().getClassLoader())) {
            thread.setContextClassLoader(loader);
            SortedMap<String, String> files = Manifests.write(registration(loader), options, written, outputDirectory.toPath());
            getLog().info("metahook: wrote " + files.size() + " files to " + outputDirectory + " ("
                    + (written.contains(Manifests.Format.KUSTOMIZE) ? "kubectl apply -k " + outputDirectory : "")
                    + (written.size() == 2 ? ", or " : "")
                    + (written.contains(Manifests.Format.HELM) ? "helm install " + service + " " + outputDirectory + "/chart" : "") + ")");
        } catch (IOException e) {
            throw new MojoExecutionException("metahook: cannot write the manifests to " + outputDirectory + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new MojoExecutionException("metahook: cannot write the manifests of " + controllers + ": " + e.getMessage(), e);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    private ManifestOptions options() throws MojoExecutionException {
        try {
            ManifestOptions options = ManifestOptions.service(service, image);
            if (namespace != null && !namespace.isBlank()) {
                options = options.withNamespace(namespace);
            }
            options = options.withMetacontroller(metacontrollerNamespace, metacontrollerPods == null ? Map.of() : metacontrollerPods)
                    .withMonitoring(monitoringNamespace, monitoringPods == null ? Map.of() : monitoringPods);
            for (SecretFile file : secretFiles) {
                options = options.withSecretFile(file.env, file.secret, file.key);
            }
            return options;
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException("metahook: " + e.getMessage());
        }
    }

    private Set<Manifests.Format> formats() throws MojoExecutionException {
        Set<Manifests.Format> set = EnumSet.noneOf(Manifests.Format.class);
        for (String format : (formats == null ? "" : formats).split(",")) {
            switch (format.strip()) {
                case "kustomize" -> set.add(Manifests.Format.KUSTOMIZE);
                case "helm" -> set.add(Manifests.Format.HELM);
                case "" -> { }
                default -> throw new MojoExecutionException("metahook: <formats> takes kustomize, helm or both (kustomize,helm), got '"
                        + formats + "'");
            }
        }
        if (set.isEmpty()) {
            throw new MojoExecutionException("metahook: <formats> is empty: name kustomize, helm or both (kustomize,helm)");
        }
        return set;
    }

    /** The project's compiled classes and its runtime dependencies, behind the plugin's own (metahook's API is the plugin's). */
    private URL[] projectClassPath() throws MojoExecutionException {
        try {
            List<String> elements = project.getRuntimeClasspathElements();
            URL[] urls = new URL[elements.size()];
            for (int i = 0; i < urls.length; i++) {
                urls[i] = new File(elements.get(i)).toURI().toURL();
            }
            return urls;
        } catch (DependencyResolutionRequiredException | MalformedURLException e) {
            throw new MojoExecutionException("metahook: cannot read the project's class path: " + e.getMessage(), e);
        }
    }

    private Controllers registration(ClassLoader loader) throws MojoExecutionException {
        int hash = controllers.indexOf('#');
        if (hash <= 0 || hash == controllers.length() - 1) {
            throw new MojoExecutionException("metahook: <controllers> must name a method as CLASS#METHOD"
                    + " (com.example.GreetingService#controllers), got '" + controllers + "'");
        }
        String className = controllers.substring(0, hash);
        String methodName = controllers.substring(hash + 1);
        try {
            Method method = Class.forName(className, true, loader).getMethod(methodName);
            if (!Modifier.isStatic(method.getModifiers()) || !Controllers.class.isAssignableFrom(method.getReturnType())) {
                throw new MojoExecutionException("metahook: " + controllers + " must be public static and return "
                        + Controllers.class.getName());
            }
            return (Controllers) method.invoke(null);
        } catch (ClassNotFoundException e) {
            throw new MojoExecutionException("metahook: no class " + className + " in the project's compiled classes"
                    + " (the goal runs after compile: process-classes or later)", e);
        } catch (NoSuchMethodException e) {
            throw new MojoExecutionException("metahook: " + className + " has no public method " + methodName + "() without parameters", e);
        } catch (IllegalAccessException e) {
            throw new MojoExecutionException("metahook: " + controllers + " is not accessible: " + e.getMessage(), e);
        } catch (InvocationTargetException e) {
            throw new MojoExecutionException("metahook: " + controllers + " failed: " + e.getCause(), e.getCause());
        }
    }

    /** A Secret key the service reads as a file, its path in the variable {@code env}. */
    public static final class SecretFile {
        /** The variable that holds the file's path. */
        @Parameter(required = true)
        private String env;
        /** The Secret's name. */
        @Parameter(required = true)
        private String secret;
        /** The key in the Secret. */
        @Parameter(required = true)
        private String key;
    }
}
