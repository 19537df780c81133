package dev.metahook.internal.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * CanonicalJson orders names as Go does, by code point. A class of its own: a class with both jqwik
 * properties and Jupiter tests is run by both engines, and Surefire's report of it counts only the last.
 */
class CanonicalJsonPropertyTest {

    /** Strings mixing ASCII, the units around the surrogates and code points above U+FFFF, ordered as their code points are. */
    @Property(tries = 2000)
    void ordersNamesAsTheirCodePointsDo(@ForAll("names") String a, @ForAll("names") String b) {
        assertEquals(Integer.signum(Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray())),
                Integer.signum(CanonicalJson.CODE_POINT_ORDER.compare(a, b)), () -> a.codePoints().boxed().toList() + " vs "
                        + b.codePoints().boxed().toList());
    }

    @Provide
    Arbitrary<String> names() {
        Arbitrary<Integer> codePoints = Arbitraries.oneOf(Arbitraries.integers().between('a', 'c'),
                Arbitraries.integers().between(0xD7FE, 0xD7FF), Arbitraries.integers().between(0xE000, 0xE001),
                Arbitraries.integers().between(0xFFFE, 0xFFFF), Arbitraries.integers().between(0x10000, 0x10001),
                Arbitraries.integers().between(0x10FFFF, 0x10FFFF));
        return codePoints.list().ofMaxSize(4).map(list -> list.stream().collect(StringBuilder::new, StringBuilder::appendCodePoint,
                StringBuilder::append).toString());
    }
}
