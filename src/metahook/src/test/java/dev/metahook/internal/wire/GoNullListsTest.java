package dev.metahook.internal.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.InvalidNullException;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Lists as Go writes them: a null list of a Kubernetes object is empty, a null inside a list is refused, a record's own list stays as given. */
class GoNullListsTest {
    record Spec(List<String> targets) {}

    @Test
    void aNullListOfAKubernetesObjectReadsAsTheEmptyListGoMeans() throws JsonProcessingException {
        Pod pod = Json.mapper().readValue("{\"spec\":{\"containers\":null}}", Pod.class);
        assertEquals(List.of(), pod.getSpec().getContainers());
        ClusterRole aggregated = Json.mapper().readValue("{\"metadata\":{\"name\":\"view\"},\"rules\":null}", ClusterRole.class);
        assertEquals(List.of(), aggregated.getRules());
    }

    @Test
    void aRecordOfTheControllersOwnTellsAbsentAndNullFromEmpty() throws JsonProcessingException {
        assertNull(Json.mapper().readValue("{}", Spec.class).targets());
        assertNull(Json.mapper().readValue("{\"targets\":null}", Spec.class).targets());
        assertEquals(List.of(), Json.mapper().readValue("{\"targets\":[]}", Spec.class).targets());
    }

    @Test
    void aNullInsideAListIsRefused() {
        assertThrows(InvalidNullException.class, () -> Json.mapper().readValue("{\"targets\":[null]}", Spec.class));
        assertThrows(InvalidNullException.class, () -> Json.mapper().readValue("{\"spec\":{\"containers\":[null]}}", Pod.class));
    }
}
