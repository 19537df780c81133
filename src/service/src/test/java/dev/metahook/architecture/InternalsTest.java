package dev.metahook.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.codeUnits;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What a user imports ({@code api}, {@code testkit}, {@code Metahook.serve}) never hands out or asks for
 * an internal type: {@code wire}, {@code contract}, {@code engine}, {@code sim}, or a {@code server} type
 * other than the three a service of one's own configures and holds (docs/writing-controllers.md,
 * "Use metahook as a library"). Internal packages may change in any release; their package javadoc
 * says so.
 */
class InternalsTest {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.metahook");
    private static final Set<String> PUBLIC_SERVER_TYPES = Set.of("dev.metahook.internal.server.ServerConfig",
            "dev.metahook.internal.server.WarmUp", "dev.metahook.internal.server.HookServer");

    static boolean internal(JavaClass type) {
        String name = type.getName();
        if (PUBLIC_SERVER_TYPES.stream().anyMatch(open -> name.equals(open) || name.startsWith(open + "$"))) {
            return false;
        }
        return List.of("dev.metahook.internal.wire", "dev.metahook.internal.contract", "dev.metahook.internal.engine", "dev.metahook.internal.sim",
                "dev.metahook.internal.server").contains(type.getPackageName());
    }

    @Test
    void whatUsersImportExposesNoInternalType() {
        codeUnits().that().arePublic()
                .and().areDeclaredInClassesThat(userFacing())
                .should(new ArchCondition<JavaCodeUnit>("name no internal type in their signature") {
                    @Override
                    public void check(JavaCodeUnit unit, ConditionEvents events) {
                        List<JavaType> types = new ArrayList<>(unit.getParameterTypes());
                        types.add(unit.getReturnType());
                        for (JavaType type : types) {
                            for (JavaClass involved : type.getAllInvolvedRawTypes()) {
                                if (internal(involved)) {
                                    events.add(SimpleConditionEvent.violated(unit, unit.getFullName() + " exposes " + involved.getName()));
                                }
                            }
                        }
                    }
                })
                .check(CLASSES);
    }

    /**
     * Logback is the library's default backend, not a requirement: an application on another SLF4J
     * backend excludes it, and only the configurator Logback itself loads may name its classes.
     */
    @Test
    void onlyTheLogConfigurationKnowsLogback() {
        noClasses().that().doNotHaveFullyQualifiedName("dev.metahook.internal.logging.LogConfiguration")
                .should().dependOnClassesThat().resideInAnyPackage("ch.qos.logback..", "net.logstash..")
                .check(CLASSES);
    }

    private static DescribedPredicate<JavaClass> userFacing() {
        return DescribedPredicate.describe("public classes of api, testkit and dev.metahook",
                type -> type.getModifiers().contains(JavaModifier.PUBLIC)
                        && (type.getPackageName().equals("dev.metahook.api") || type.getPackageName().equals("dev.metahook.testkit")
                        || type.getPackageName().equals("dev.metahook")));
    }
}
