package dev.metahook.controllers;

import java.math.BigDecimal;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Storage sizes written as Kubernetes quantities ({@code 1Gi}, {@code 1024Mi}, {@code 5e9}), read and
 * compared without ever throwing: a quantity the CRD's pattern lets through but no volume can have
 * ({@code 1e1000000000}, {@code 0}, {@code -1Gi}) is simply not a size, for the caller to refuse.
 */
public final class Quantities {
    /** The largest size a Kubernetes quantity holds: 2^63 - 1 bytes, a little under 8Ei. */
    static final BigDecimal MAX_BYTES = BigDecimal.valueOf(Long.MAX_VALUE);
    private static final Pattern QUANTITY =
            Pattern.compile("([+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE]([+-]?[0-9]+))?");
    /** An exponent beyond this makes a size far outside the range either way; it is not computed. */
    private static final int MAX_EXPONENT = 100;

    private Quantities() {
    }

    /** The size in bytes: empty when the text is not a quantity, or not more than 0 and at most 2^63 - 1 bytes. */
    public static Optional<BigDecimal> bytes(String quantity) {
        if (quantity == null) {
            return Optional.empty();
        }
        Matcher matcher = QUANTITY.matcher(quantity);
        if (!matcher.matches()) {
            return Optional.empty();
        }
        BigDecimal number = new BigDecimal(matcher.group(1));
        String suffix = matcher.group(2) == null ? "" : matcher.group(2);
        Optional<BigDecimal> amount = matcher.group(3) != null ? exponent(number, matcher.group(3)) : Optional.of(scaled(number, suffix));
        return amount.filter(bytes -> bytes.signum() > 0 && bytes.compareTo(MAX_BYTES) <= 0);
    }

    /** Whether two quantities are the same size; false when either is not a size. */
    public static boolean sameSize(String a, String b) {
        Optional<BigDecimal> first = bytes(a);
        Optional<BigDecimal> second = bytes(b);
        return first.isPresent() && second.isPresent() && first.get().compareTo(second.get()) == 0;
    }

    private static Optional<BigDecimal> exponent(BigDecimal number, String exponent) {
        String digits = exponent.replaceFirst("^[+-]?0*", "");
        if (digits.length() > 3 || Integer.parseInt(digits.isEmpty() ? "0" : digits) > MAX_EXPONENT) {
            return Optional.empty();
        }
        return Optional.of(number.scaleByPowerOfTen(Integer.parseInt(exponent.replace("+", ""))));
    }

    private static BigDecimal scaled(BigDecimal number, String suffix) {
        int binary = "KiMiGiTiPiEi".indexOf(suffix);
        if (suffix.length() == 2 && binary >= 0) {
            return number.multiply(BigDecimal.valueOf(2).pow(10 * (binary / 2 + 1)));
        }
        int decimal = switch (suffix) {
            case "n" -> -9;
            case "u" -> -6;
            case "m" -> -3;
            case "k" -> 3;
            case "M" -> 6;
            case "G" -> 9;
            case "T" -> 12;
            case "P" -> 15;
            case "E" -> 18;
            default -> 0;
        };
        return number.scaleByPowerOfTen(decimal);
    }
}
