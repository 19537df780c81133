package dev.metahook.controllers.database;

import dev.metahook.controllers.Labels;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.ExecAction;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimSpec;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimStatus;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimVolumeSource;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServiceSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeResourceRequirements;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetSpec;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;
import java.util.List;
import java.util.Map;

/**
 * The children of a Database, built from a checked spec with the model's constructors and setters:
 * fabric8's builders copy every nested object at each level they pass through.
 */
final class DatabaseChildren {
    static final String APP = "database";
    static final int PORT = 5432;

    private DatabaseChildren() {
    }

    static Map<String, String> labels(Database database) {
        return Labels.common(APP, database.getMetadata().getName());
    }

    static String headlessName(String database) {
        return database + "-headless";
    }

    static String backupJobName(String database) {
        return database + "-final-backup";
    }

    static Service clientService(Database database) {
        return service(database, database.getMetadata().getName(), null);
    }

    static Service headlessService(Database database) {
        return service(database, headlessName(database.getMetadata().getName()), "None");
    }

    static StatefulSet statefulSet(Database database, DesiredDatabase desired) {
        String name = database.getMetadata().getName();
        Container postgres = new Container();
        postgres.setName("postgres");
        postgres.setImage(desired.image());
        postgres.setEnv(List.of(secretEnv("POSTGRES_USER", name, "username"), secretEnv("POSTGRES_PASSWORD", name, "password"),
                new EnvVar("PGDATA", "/var/lib/postgresql/data/pgdata", null)));
        postgres.setPorts(List.of(containerPort()));
        Probe readiness = new Probe();
        readiness.setExec(new ExecAction(List.of("pg_isready", "-U", Credentials.USERNAME)));
        postgres.setReadinessProbe(readiness);
        postgres.setVolumeMounts(List.of(volumeMount("/var/lib/postgresql/data")));
        PodSpec pod = new PodSpec();
        pod.setContainers(List.of(postgres));
        StatefulSetSpec spec = new StatefulSetSpec();
        spec.setServiceName(headlessName(name));
        spec.setReplicas(1);
        spec.setSelector(new LabelSelector(null, Labels.selector(APP, name)));
        spec.setTemplate(new PodTemplateSpec(Labels.objectMeta(null, null, Labels.selector(APP, name)), pod));
        spec.setVolumeClaimTemplates(List.of(claimTemplate(desired.storage())));
        StatefulSet statefulSet = new StatefulSet();
        statefulSet.setMetadata(metadata(database, name));
        statefulSet.setSpec(spec);
        return statefulSet;
    }

    /**
     * The claim template as the API server stores it after defaulting: apiVersion and kind,
     * {@code volumeMode} and a Pending status, and metadata with the name. Metacontroller replaces lists it
     * cannot merge by key, so any difference would be an update on every sync. The zero
     * {@code creationTimestamp} the server writes there up to Kubernetes 1.33 (and leaves out from 1.34)
     * metahook answers in the observed StatefulSet's form.
     */
    static PersistentVolumeClaim claimTemplate(String storage) {
        ObjectMeta metadata = new ObjectMeta();
        metadata.setName("data");
        VolumeResourceRequirements resources = new VolumeResourceRequirements();
        resources.setRequests(Map.of("storage", new Quantity(storage)));
        PersistentVolumeClaimSpec spec = new PersistentVolumeClaimSpec();
        spec.setAccessModes(List.of("ReadWriteOnce"));
        spec.setResources(resources);
        spec.setVolumeMode("Filesystem");
        PersistentVolumeClaimStatus status = new PersistentVolumeClaimStatus();
        status.setPhase("Pending");
        PersistentVolumeClaim claim = new PersistentVolumeClaim();
        claim.setMetadata(metadata);
        claim.setSpec(spec);
        claim.setStatus(status);
        return claim;
    }

    /** The final backup: a cold archive of the stopped data directory, written next to it on the retained claim. */
    static Job backupJob(Database database, String image, String timestamp) {
        String name = database.getMetadata().getName();
        String archive = "/data/final-backup-" + timestamp + ".tar.gz";
        Container backup = new Container();
        backup.setName("backup");
        backup.setImage(image);
        backup.setCommand(List.of("sh", "-c", "tar -czf " + archive + " -C /data pgdata"));
        backup.setVolumeMounts(List.of(volumeMount("/data")));
        Volume data = new Volume();
        data.setName("data");
        data.setPersistentVolumeClaim(new PersistentVolumeClaimVolumeSource("data-" + name + "-0", null));
        PodSpec pod = new PodSpec();
        pod.setRestartPolicy("Never");
        pod.setContainers(List.of(backup));
        pod.setVolumes(List.of(data));
        JobSpec spec = new JobSpec();
        spec.setBackoffLimit(2);
        spec.setTemplate(new PodTemplateSpec(Labels.objectMeta(null, null, Labels.selector("database-backup", name)), pod));
        Job job = new Job();
        job.setMetadata(metadata(database, backupJobName(name)));
        job.setSpec(spec);
        return job;
    }

    private static Service service(Database database, String serviceName, String clusterIp) {
        ServicePort port = new ServicePort();
        port.setName("postgres");
        port.setPort(PORT);
        port.setTargetPort(new IntOrString("postgres"));
        ServiceSpec spec = new ServiceSpec();
        spec.setType("ClusterIP");
        spec.setClusterIP(clusterIp);
        spec.setSelector(Labels.selector(APP, database.getMetadata().getName()));
        spec.setPorts(List.of(port));
        Service service = new Service();
        service.setMetadata(metadata(database, serviceName));
        service.setSpec(spec);
        return service;
    }

    private static EnvVar secretEnv(String variable, String database, String key) {
        EnvVarSource source = new EnvVarSource();
        source.setSecretKeyRef(new SecretKeySelector(key, Credentials.secretName(database), null));
        return new EnvVar(variable, null, source);
    }

    private static ContainerPort containerPort() {
        ContainerPort port = new ContainerPort();
        port.setName("postgres");
        port.setContainerPort(PORT);
        return port;
    }

    private static VolumeMount volumeMount(String path) {
        VolumeMount mount = new VolumeMount();
        mount.setName("data");
        mount.setMountPath(path);
        return mount;
    }

    static ObjectMeta metadata(Database database, String name) {
        return Labels.objectMeta(name, database.getMetadata().getNamespace(), labels(database));
    }
}
