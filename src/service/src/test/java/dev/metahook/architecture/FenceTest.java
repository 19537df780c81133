package dev.metahook.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The fence between what users may rely on and what may change in any release (docs/public-api.md): the user-facing
 * packages of the published library artifacts are listed here and in that page; no public or protected member of a
 * user-facing type names an internal type, no internal type is reachable from the facade, every other class of
 * those artifacts is under {@code dev.metahook.internal}, and the user-facing types are the ones the page lists.
 */
class FenceTest {
    /** The packages a user imports; everything else in the library artifacts is under {@value #INTERNAL}. */
    static final Set<String> USER_FACING = Set.of("dev.metahook", "dev.metahook.api", "dev.metahook.testkit", "dev.metahook.manifests");
    static final String INTERNAL = "dev.metahook.internal";
    /** Where users enter: serving, testing, build-time manifests. */
    static final List<String> ENTRY_POINTS = List.of("dev.metahook.Metahook", "dev.metahook.testkit.HookTester",
            "dev.metahook.manifests.Manifests");
    /** The most user-facing types the surface may have (issue 33). */
    static final int MOST_TYPES = 60;

    /** The library artifacts' own classes, as their modules build them (not the service's, not the tests'). */
    private static final JavaClasses LIBRARY = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPaths(Path.of("src/metahook/target/classes"), Path.of("src/testkit/target/classes"),
                    Path.of("src/manifests/target/classes"));

    static boolean internal(JavaClass type) {
        return type.getPackageName().equals(INTERNAL) || type.getPackageName().startsWith(INTERNAL + ".");
    }

    static boolean exported(JavaClass type) {
        if (!type.getModifiers().contains(JavaModifier.PUBLIC) || !USER_FACING.contains(type.getPackageName())) {
            return false;
        }
        return type.getEnclosingClass().map(FenceTest::exported).orElse(true);
    }

    @Test
    void everyClassOfTheLibraryIsUserFacingOrInternal() {
        assertTrue(LIBRARY.size() > 100, "the library's classes were found (" + LIBRARY.size() + "): run after compile");
        List<String> stray = LIBRARY.stream()
                .filter(type -> !internal(type) && !USER_FACING.contains(type.getPackageName()))
                .map(JavaClass::getName).sorted().toList();
        assertEquals(List.of(), stray, "classes neither in a user-facing package nor under " + INTERNAL);
    }

    @Test
    void noUserFacingSignatureNamesAnInternalType() {
        List<String> leaks = new ArrayList<>();
        for (JavaClass type : LIBRARY) {
            if (exported(type)) {
                signature(type).forEach((where, named) -> {
                    if (internal(named)) {
                        leaks.add(where + " names " + named.getName());
                    }
                });
            }
        }
        assertEquals(List.of(), leaks);
    }

    @Test
    void noInternalTypeIsReachableFromTheFacade() {
        Map<String, String> path = new LinkedHashMap<>();
        Deque<JavaClass> queue = new ArrayDeque<>();
        for (String entry : ENTRY_POINTS) {
            JavaClass type = LIBRARY.get(entry);
            path.put(type.getName(), type.getSimpleName());
            queue.add(type);
        }
        List<String> reached = new ArrayList<>();
        while (!queue.isEmpty()) {
            JavaClass type = queue.poll();
            signature(type).forEach((where, named) -> {
                if (!named.getName().startsWith("dev.metahook") || path.containsKey(named.getName())) {
                    return;
                }
                path.put(named.getName(), path.get(type.getName()) + " -> " + where);
                if (internal(named)) {
                    reached.add(named.getName() + " via " + path.get(named.getName()));
                } else {
                    queue.add(named);
                }
            });
        }
        assertEquals(List.of(), reached);
        assertTrue(path.size() > 20, "the walk reached the API: " + path.keySet());
    }

    @Test
    void theUserFacingTypesAreTheOnesThePageLists() throws IOException {
        Set<String> types = LIBRARY.stream().filter(FenceTest::exported).map(JavaClass::getName)
                .collect(Collectors.toCollection(TreeSet::new));
        String page = Files.readString(Path.of("docs/public-api.md"));
        Set<String> listed = new TreeSet<>();
        Matcher listing = Pattern.compile("^- `(dev\\.metahook[\\w.$]*)`", Pattern.MULTILINE).matcher(page);
        while (listing.find()) {
            // the Spring Boot starter's types are listed too; its own module checks them (StarterFenceTest)
            if (!listing.group(1).startsWith("dev.metahook.spring.")) {
                listed.add(listing.group(1));
            }
        }
        assertEquals(types, listed, "docs/public-api.md lists the public types of " + USER_FACING);
        assertTrue(types.size() <= MOST_TYPES, types.size() + " user-facing types, more than " + MOST_TYPES);
        assertTrue(page.contains(types.size() + " types"), "docs/public-api.md says how many: " + types.size() + " types");
    }

    /** Each type a user-facing type's outside shows, by where it shows: supertypes, type parameters, public and protected members. */
    private static Map<String, JavaClass> signature(JavaClass type) {
        Map<String, JavaClass> named = new LinkedHashMap<>();
        List<JavaType> supertypes = new ArrayList<>(type.getInterfaces());
        type.getSuperclass().ifPresent(supertypes::add);
        for (JavaType supertype : supertypes) {
            supertype.getAllInvolvedRawTypes().forEach(raw -> named.putIfAbsent(type.getSimpleName() + " extends " + raw.getSimpleName(), raw));
        }
        type.getTypeParameters().forEach(parameter -> parameter.getAllInvolvedRawTypes()
                .forEach(raw -> named.putIfAbsent(type.getSimpleName() + "<" + raw.getSimpleName() + ">", raw)));
        for (JavaCodeUnit unit : type.getCodeUnits()) {
            if (visible(unit.getModifiers())) {
                List<JavaType> shown = new ArrayList<>(unit.getParameterTypes());
                shown.add(unit.getReturnType());
                shown.addAll(unit.getThrowsClause().getTypes());
                for (JavaType each : shown) {
                    each.getAllInvolvedRawTypes().forEach(raw -> named.putIfAbsent(unit.getFullName() + " [" + raw.getSimpleName() + "]", raw));
                }
            }
        }
        for (JavaField field : type.getFields()) {
            if (visible(field.getModifiers())) {
                field.getType().getAllInvolvedRawTypes().forEach(raw -> named.putIfAbsent(field.getFullName(), raw));
            }
        }
        named.values().removeIf(raw -> raw.isPrimitive() || raw.isArray() && raw.getBaseComponentType().isPrimitive());
        named.replaceAll((where, raw) -> raw.isArray() ? raw.getBaseComponentType() : raw);
        return named;
    }

    private static boolean visible(Set<JavaModifier> modifiers) {
        return modifiers.contains(JavaModifier.PUBLIC) || modifiers.contains(JavaModifier.PROTECTED);
    }
}
