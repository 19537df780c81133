package dev.metahook.controllers.database;

import dev.metahook.controllers.Labels;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.util.Map;

/** The children of a Database, built from a checked spec. */
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
        return new StatefulSetBuilder()
                .withMetadata(metadata(database, name))
                .withNewSpec()
                .withServiceName(headlessName(name))
                .withReplicas(1)
                .withNewSelector().withMatchLabels(Labels.selector(APP, name)).endSelector()
                .withNewTemplate()
                .withNewMetadata().withLabels(Labels.selector(APP, name)).endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("postgres")
                .withImage(desired.image())
                .addNewEnv().withName("POSTGRES_USER").withNewValueFrom().withNewSecretKeyRef()
                .withName(Credentials.secretName(name)).withKey("username").endSecretKeyRef().endValueFrom().endEnv()
                .addNewEnv().withName("POSTGRES_PASSWORD").withNewValueFrom().withNewSecretKeyRef()
                .withName(Credentials.secretName(name)).withKey("password").endSecretKeyRef().endValueFrom().endEnv()
                .addNewEnv().withName("PGDATA").withValue("/var/lib/postgresql/data/pgdata").endEnv()
                .addNewPort().withName("postgres").withContainerPort(PORT).endPort()
                .withNewReadinessProbe().withNewExec().withCommand("pg_isready", "-U", Credentials.USERNAME).endExec().endReadinessProbe()
                .addNewVolumeMount().withName("data").withMountPath("/var/lib/postgresql/data").endVolumeMount()
                .endContainer()
                .endSpec()
                .endTemplate()
                .withVolumeClaimTemplates(claimTemplate(desired.storage()))
                .endSpec()
                .build();
    }

    /**
     * The claim template exactly as the API server stores it after defaulting. Metacontroller replaces
     * lists it cannot merge by key, so any difference would be an update on every sync.
     */
    static PersistentVolumeClaim claimTemplate(String storage) {
        ObjectMeta metadata = new ObjectMetaBuilder().withName("data").build();
        metadata.setAdditionalProperty("creationTimestamp", null);
        return new PersistentVolumeClaimBuilder()
                .withMetadata(metadata)
                .withNewSpec()
                .withAccessModes("ReadWriteOnce")
                .withNewResources().addToRequests("storage", new Quantity(storage)).endResources()
                .withVolumeMode("Filesystem")
                .endSpec()
                .withNewStatus().withPhase("Pending").endStatus()
                .build();
    }

    /** The final backup: a cold archive of the stopped data directory, written next to it on the retained claim. */
    static Job backupJob(Database database, String image, String timestamp) {
        String name = database.getMetadata().getName();
        String archive = "/data/final-backup-" + timestamp + ".tar.gz";
        return new JobBuilder()
                .withMetadata(metadata(database, backupJobName(name)))
                .withNewSpec()
                .withBackoffLimit(2)
                .withNewTemplate()
                .withNewMetadata().withLabels(Labels.selector("database-backup", name)).endMetadata()
                .withNewSpec()
                .withRestartPolicy("Never")
                .addNewContainer()
                .withName("backup")
                .withImage(image)
                .withCommand("sh", "-c", "tar -czf " + archive + " -C /data pgdata")
                .addNewVolumeMount().withName("data").withMountPath("/data").endVolumeMount()
                .endContainer()
                .addNewVolume().withName("data").withNewPersistentVolumeClaim().withClaimName("data-" + name + "-0")
                .endPersistentVolumeClaim().endVolume()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }

    private static Service service(Database database, String serviceName, String clusterIp) {
        String name = database.getMetadata().getName();
        return new ServiceBuilder()
                .withMetadata(metadata(database, serviceName))
                .withNewSpec()
                .withType("ClusterIP")
                .withClusterIP(clusterIp)
                .withSelector(Labels.selector(APP, name))
                .addNewPort().withName("postgres").withPort(PORT).withNewTargetPort("postgres").endPort()
                .endSpec()
                .build();
    }

    private static ObjectMeta metadata(Database database, String name) {
        return new ObjectMetaBuilder().withName(name).withNamespace(database.getMetadata().getNamespace())
                .withLabels(labels(database)).build();
    }
}
