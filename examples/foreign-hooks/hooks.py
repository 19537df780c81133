#!/usr/bin/env python3
"""Two Metacontroller hooks in plain Python (standard library only), to try metahook's render and
check on hooks written outside Java:

  /service-per-pod/sync, /finalize        DecoratorController: a Service per pod of an annotated
                                          StatefulSet, a label on it; finalize once the Services are gone
  /configmap-propagation/customize, /sync CompositeController: customize asks for a source ConfigMap
                                          and the namespaces a selector picks; sync copies the one into each

Usage: python3 examples/foreign-hooks/hooks.py [port]   (127.0.0.1, port 8090 by default; 0 picks one)
"""
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def service_per_pod_sync(request):
    target = request["object"]
    name = target["metadata"]["name"]
    port = int(target["metadata"].get("annotations", {}).get("service-per-pod-port", "80"))
    services = [{"apiVersion": "v1", "kind": "Service",
                 "metadata": {"name": f"{name}-{i}"},
                 "spec": {"selector": {"statefulset.kubernetes.io/pod-name": f"{name}-{i}"},
                          "ports": [{"port": 80, "targetPort": port}]}}
                for i in range(target["spec"].get("replicas", 1))]
    return {"labels": {"service-per-pod/decorated": "true"}, "attachments": services}


def service_per_pod_finalize(request):
    return {"attachments": [], "finalized": not request["attachments"].get("Service.v1")}


def propagation_customize(request):
    spec = request["parent"]["spec"]
    return {"relatedResources": [
        {"apiVersion": "v1", "resource": "configmaps", "namespace": spec["sourceNamespace"], "names": [spec["sourceName"]]},
        {"apiVersion": "v1", "resource": "namespaces", "labelSelector": spec["namespaceSelector"]}]}


def propagation_sync(request):
    spec = request["parent"]["spec"]
    related = request["related"]
    source = related.get("ConfigMap.v1", {}).get(spec["sourceNamespace"] + "/" + spec["sourceName"])
    copies = [] if source is None else [
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": spec["sourceName"], "namespace": namespace},
         "data": source.get("data", {})}
        for namespace in sorted(related.get("Namespace.v1", {}))]
    observed = len(request["children"].get("ConfigMap.v1", {}))
    return {"children": copies, "status": {"expectedCopies": len(copies), "actualCopies": observed}}


HOOKS = {
    "/service-per-pod/sync": service_per_pod_sync,
    "/service-per-pod/finalize": service_per_pod_finalize,
    "/configmap-propagation/customize": propagation_customize,
    "/configmap-propagation/sync": propagation_sync,
}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as Metacontroller's client expects
    disable_nagle_algorithm = True

    def do_POST(self):
        hook = HOOKS.get(self.path)
        if hook is None:
            self.send_error(404)
            return
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        body = json.dumps(hook(request)).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        pass


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 8090), Handler)
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()
