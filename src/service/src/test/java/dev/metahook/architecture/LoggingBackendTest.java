package dev.metahook.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Logback is the library's default backend, not a requirement: an application on another SLF4J
 * backend excludes it, and only the configuration Logback itself loads (and its JSON encoder) may name its classes.
 */
class LoggingBackendTest {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.metahook");

    @Test
    void onlyTheLoggingPackageKnowsLogback() {
        noClasses().that().resideOutsideOfPackage("dev.metahook.internal.logging")
                .should().dependOnClassesThat().resideInAnyPackage("ch.qos.logback..", "net.logstash..")
                .check(CLASSES);
    }
}
