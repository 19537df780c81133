package dev.metahook.architecture;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.metahook.api.ChildId;
import dev.metahook.testkit.CheckReport;
import org.junit.jupiter.api.Test;

/** The layering of docs/design.md, checked: each package knows only the ones below it. */
class LayersTest {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.metahook");

    @Test
    void packagesKnowOnlyTheLayersBelowThem() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("wire").definedBy("dev.metahook.internal.wire..")
                .layer("api").definedBy("dev.metahook.api..")
                .layer("contract").definedBy("dev.metahook.internal.contract..")
                .layer("engine").definedBy("dev.metahook.internal.engine..")
                .layer("credentials").definedBy("dev.metahook.internal.credentials..")
                .layer("server").definedBy("dev.metahook.internal.server..")
                .layer("sim").definedBy("dev.metahook.internal.sim..")
                .layer("registration").definedBy("dev.metahook.internal.registration..")
                .layer("logging").definedBy("dev.metahook.internal.logging..")
                .layer("manifests").definedBy("dev.metahook.manifests..")
                .layer("controllers").definedBy("dev.metahook.controllers..")
                .layer("examples").definedBy("dev.metahook.examples..")
                .layer("service").definedBy("dev.metahook")
                .layer("testkit").definedBy("dev.metahook.testkit..")
                .layer("cli").definedBy("dev.metahook.cli..")
                .whereLayer("cli").mayNotBeAccessedByAnyLayer()
                .whereLayer("testkit").mayOnlyBeAccessedByLayers("sim", "cli")
                .whereLayer("service").mayOnlyBeAccessedByLayers("cli")
                .whereLayer("server").mayOnlyBeAccessedByLayers("service", "cli")
                .whereLayer("credentials").mayOnlyBeAccessedByLayers("server", "sim", "cli")
                .whereLayer("controllers").mayOnlyBeAccessedByLayers("cli")
                .whereLayer("examples").mayOnlyBeAccessedByLayers("cli")
                .whereLayer("sim").mayOnlyBeAccessedByLayers("testkit", "cli")
                .whereLayer("manifests").mayNotBeAccessedByAnyLayer()
                .whereLayer("logging").mayNotBeAccessedByAnyLayer()
                .whereLayer("registration").mayOnlyBeAccessedByLayers("manifests", "testkit")
                .whereLayer("engine").mayOnlyBeAccessedByLayers("server", "sim", "service", "testkit", "cli")
                .whereLayer("contract").mayOnlyBeAccessedByLayers("engine", "sim", "testkit", "cli")
                .whereLayer("api").mayOnlyBeAccessedByLayers("contract", "engine", "server", "sim", "registration", "manifests", "controllers", "examples", "service", "testkit", "cli")
                .whereLayer("wire").mayOnlyBeAccessedByLayers("api", "contract", "engine", "server", "sim", "registration", "manifests", "testkit", "cli")
                .withOptionalLayers(true)
                .check(CLASSES);
    }

    /** The contract's rules name objects by the public {@link ChildId} and know nothing else of the API. */
    @Test
    void theContractKnowsOnlyChildIdOfTheApi() {
        noClasses().that().resideInAPackage("dev.metahook.internal.contract..")
                .should().dependOnClassesThat(JavaClass.Predicates.resideInAPackage("dev.metahook.api..")
                        .and(DescribedPredicate.not(JavaClass.Predicates.equivalentTo(ChildId.class))))
                .check(CLASSES);
    }

    /**
     * The simulator reports what a check found in the test kit's {@link CheckReport}, the one report type of the
     * simulator, the test kit and the CLI; of the test kit it knows nothing else.
     */
    @Test
    void theSimulatorKnowsOnlyTheCheckReportOfTheTestKit() {
        noClasses().that().resideInAPackage("dev.metahook.internal.sim..")
                .should().dependOnClassesThat(JavaClass.Predicates.resideInAPackage("dev.metahook.testkit..")
                        .and(DescribedPredicate.not(JavaClass.Predicates.belongToAnyOf(CheckReport.class))))
                .check(CLASSES);
    }

    @Test
    void onlyTheServerSpeaksHttp() {
        noClasses().that().resideOutsideOfPackages("dev.metahook.internal.server..", "dev.metahook.cli..")
                .should().dependOnClassesThat().resideInAnyPackage("io.javalin..", "org.eclipse.jetty..", "jakarta.servlet..")
                .check(CLASSES);
    }

    @Test
    void controllersSeeOnlyTheApi() {
        noClasses().that().resideInAPackage("dev.metahook.controllers..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.metahook.internal.wire..", "dev.metahook.internal.engine..",
                        "dev.metahook.internal.server..", "com.fasterxml.jackson.databind..")
                .allowEmptyShould(true)
                .check(CLASSES);
    }

    /**
     * The ported examples are held to the same: the API and the fabric8 model. One exception: the
     * bluegreen example records a pod template as JSON in an annotation, as the original does, and
     * reads and writes that text with Jackson in one class.
     */
    @Test
    void examplesSeeOnlyTheApi() {
        noClasses().that().resideInAPackage("dev.metahook.examples..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.metahook.internal.wire..", "dev.metahook.internal.engine..",
                        "dev.metahook.internal.server..", "dev.metahook.internal.sim..", "dev.metahook.cli..", "dev.metahook.controllers..")
                .check(CLASSES);
        noClasses().that().resideInAPackage("dev.metahook.examples..")
                .and().doNotHaveFullyQualifiedName("dev.metahook.examples.bluegreen.RecordedTemplate")
                .should().dependOnClassesThat().resideInAnyPackage("com.fasterxml.jackson.databind..")
                .check(CLASSES);
    }
}
