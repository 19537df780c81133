package dev.metahook.controllers.database;

import dev.metahook.api.CustomResource;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;

/** {@code databases.metahook.dev/v1}: one PostgreSQL instance with a guarded, ordered teardown. */
@Group("metahook.dev")
@Version("v1")
public class Database extends CustomResource<Database.Spec, Database.Status> implements Namespaced {

    /** What the user asks for; absent values take the CRD's defaults. */
    public record Spec(String engine, String version, String storage, String deletionPolicy) {
    }

    /** What the controller reports; {@code phase} is read back to tell Degraded from Provisioning. */
    public record Status(String phase, String endpoint, String credentialsSecret, List<Condition> conditions) {
    }
}
