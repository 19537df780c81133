package dev.metahook.controllers.database;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.metahook.api.ConditionSchema;
import dev.metahook.api.CustomResource;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn.Type;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;

/** {@code databases.metahook.dev/v1}: one PostgreSQL instance with a guarded, ordered teardown. */
@Group("metahook.dev")
@Version("v1")
@ShortNames("db")
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase", type = Type.STRING)
@AdditionalPrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status", type = Type.STRING)
@AdditionalPrinterColumn(name = "Endpoint", jsonPath = ".status.endpoint", type = Type.STRING, priority = 1)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = Type.DATE)
public class Database extends CustomResource<Database.Spec, Database.Status> implements Namespaced {

    /** What the user asks for; absent values take the CRD's defaults. */
    public record Spec(@SchemaFrom(type = Engine.class) @Default("postgres") String engine,
                       @Pattern("^[0-9]+(\\.[0-9]+)?$") @Default("16") String version,
                       @Pattern(QUANTITY) @Default("1Gi") String storage,
                       @SchemaFrom(type = DeletionPolicy.class) @Default("Backup") String deletionPolicy) {
    }

    /** A Kubernetes resource quantity, as the API server's own pattern for one. */
    static final String QUANTITY = "^[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?[0-9]+)?$";

    /** The engines a Database may ask for (the CRD's enum). */
    enum Engine {
        @JsonProperty("postgres") POSTGRES
    }

    /** What happens to the data when a Database is deleted (the CRD's enum). */
    enum DeletionPolicy {
        @JsonProperty("Backup") BACKUP, @JsonProperty("Delete") DELETE
    }

    /** The phases a Database reports (the CRD's enum). */
    enum PhaseName {
        @JsonProperty("Pending") PENDING, @JsonProperty("Provisioning") PROVISIONING, @JsonProperty("Ready") READY,
        @JsonProperty("Degraded") DEGRADED, @JsonProperty("Failed") FAILED, @JsonProperty("Deleting") DELETING
    }

    /** Absent, the spec is {@code {}}, so that the API server fills in every default. */
    @Override
    @Default("{}")
    public Spec getSpec() {
        return super.getSpec();
    }

    /** What the controller reports; {@code phase} is read back to tell Degraded from Provisioning. */
    public record Status(@SchemaFrom(type = PhaseName.class) String phase, String endpoint, String credentialsSecret,
                         @SchemaFrom(type = ConditionSchema[].class) List<Condition> conditions) {
    }
}
