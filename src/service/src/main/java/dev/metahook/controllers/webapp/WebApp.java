package dev.metahook.controllers.webapp;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.metahook.api.ConditionSchema;
import dev.metahook.api.CustomResource;
import dev.metahook.api.ListMapKeys;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn.Type;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;

/** {@code webapps.metahook.dev/v1}: one container image served by a Deployment behind a Service. */
@Group("metahook.dev")
@Version("v1")
@ShortNames("wa")
@AdditionalPrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status", type = Type.STRING)
@AdditionalPrinterColumn(name = "Available", jsonPath = ".status.availableReplicas", type = Type.INTEGER)
@AdditionalPrinterColumn(name = "URL", jsonPath = ".status.url", type = Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = Type.DATE)
public class WebApp extends CustomResource<WebApp.Spec, WebApp.Status> implements Namespaced {

    /** What the user asks for; absent values take the CRD's defaults. */
    public record Spec(@Required @Size(min = 1) @Pattern("^\\S+$") @JsonPropertyDescription("Container image to run.") String image,
                       @Min(0) @Max(1000) @Default("1") Integer replicas,
                       @Min(1) @Max(65535) @Default("8080") Integer port,
                       @SchemaFrom(type = EnvSchema[].class) @ListMapKeys("name") List<EnvVar> env,
                       @SchemaFrom(type = Object.class) @PreserveUnknownFields ResourceRequirements resources) {
    }

    /** The CRD schema of one {@code env} entry: a name the shell accepts, the rest as a container's env. */
    record EnvSchema(@Required @Pattern("^[A-Za-z_][A-Za-z0-9_]*$") String name, String value,
                     @PreserveUnknownFields Object valueFrom) {
    }

    /** What the controller reports. */
    public record Status(int replicas, int readyReplicas, int availableReplicas, int updatedReplicas, String url,
                         @SchemaFrom(type = ConditionSchema[].class) List<Condition> conditions) {
    }
}
