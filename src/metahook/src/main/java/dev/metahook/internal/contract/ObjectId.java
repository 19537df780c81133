package dev.metahook.internal.contract;

/** Who an object is, as Metacontroller matches observed and desired objects: type, namespace, name. */
public record ObjectId(String apiVersion, String kind, String namespace, String name) {

    @Override
    public String toString() {
        return kind + "." + apiVersion + " " + (namespace.isEmpty() ? "" : namespace + "/") + name;
    }
}
