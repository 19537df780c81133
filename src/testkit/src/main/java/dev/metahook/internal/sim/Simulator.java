package dev.metahook.internal.sim;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahook.api.ChildId;

/** Metacontroller's pass for one kind of controller: a CompositeController's parent or a DecoratorController's target. */
public interface Simulator {

    ControllerSpec spec();

    /** One pass for the root object (parent or target), as Metacontroller runs it after any event. */
    CompositeSimulator.Pass sync(ChildId root);

    /** The request Metacontroller would send for the root object as it is now, sent; nothing is applied. */
    CompositeSimulator.HookCall call(ObjectNode root);

    /** The creates, updates and deletes of children (attachments) sent so far. */
    int childWrites();

    /** The customize steps run so far. */
    Customize customize();
}
