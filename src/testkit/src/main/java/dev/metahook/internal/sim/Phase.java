package dev.metahook.internal.sim;

/**
 * A phase of the life {@code check} drives, as its report names it: where each hook call, child write and breach
 * is counted. {@link #LIFE} is no phase that runs: it is where a breach only the whole run shows is found.
 */
enum Phase {
    CREATE("create"),
    CONVERGE("converge"),
    AT_REST("at rest"),
    REPEAT("repeat"),
    RELATED("related"),
    CHANGE("change"),
    CONFLICT("409"),
    UNSELECTED("unselected"),
    SELECTED_AGAIN("selected again"),
    DELETE("delete"),
    STALLED("stalled"),
    LIFE("life");

    private final String text;

    Phase(String text) {
        this.text = text;
    }

    /** The name the report gives it: {@code create}, {@code at rest}, {@code 409}... */
    @Override
    public String toString() {
        return text;
    }
}
