package dev.metahook.internal.sim;

import dev.metahook.api.ChildId;

/**
 * An update Metacontroller sends to an existing child (or attachment) after an answer: which child,
 * whether the answer asked for it (it differs from the child's last-applied configuration), and
 * the first place where what is written differs from what is stored. An update nobody asked for is
 * needless: the answer is what was last applied, yet the merge still differs from the stored object
 * (a list without merge key that lacks what the API server writes into it, a value the server
 * stores in another form). Metacontroller sends it on every call, whether or not the API server
 * then stores anything new.
 */
public record ChildUpdate(ChildId child, boolean asked, String change) {
    public boolean needless() {
        return !asked;
    }

    @Override
    public String toString() {
        return Ids.text(child) + (asked ? "" : " (not asked for)") + " at " + change;
    }
}
