package dev.metahook.controllers;

import dev.metahook.api.TerminalException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Names a controller derives from its parent's for children the API server names strictly: a
 * Service name is a DNS label (RFC 1035: at most 63 lower-case letters, digits and '-', starting with
 * a letter, ending with a letter or digit), and so in practice is a Job's. A custom resource may be
 * called {@code my.app} or have 253 characters; such a parent cannot be served, and says so.
 */
public final class ChildNames {
    static final int MAX_LENGTH = 63;
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");

    private ChildNames() {
    }

    /**
     * Throws {@code InvalidSpec} naming the first of {@code children} (names made from
     * {@code parentName}) that is not a DNS label, and how long the parent's name may be.
     */
    public static void requireDnsLabels(String parentKind, String parentName, List<String> children) {
        int longestSuffix = children.stream().mapToInt(child -> child.length() - parentName.length()).max().orElse(0);
        for (String child : children) {
            if (child.length() > MAX_LENGTH || !DNS_LABEL.matcher(child).matches()) {
                throw new TerminalException("InvalidSpec", "metadata.name: " + parentKind + " \"" + parentName + "\" would name a child \""
                        + child + "\", which the API server refuses: a Service or Job name is at most " + MAX_LENGTH
                        + " characters of lower-case letters, digits and '-', starting with a letter and ending with a letter or digit; "
                        + "recreate the " + parentKind + " under such a name of at most " + (MAX_LENGTH - longestSuffix) + " characters");
            }
        }
    }
}
