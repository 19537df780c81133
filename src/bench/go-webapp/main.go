// The benchmark's peer: the WebApp sync hook written the way a Go team would write it with the
// standard library alone (net/http, encoding/json, typed structs for what it reads and writes). It
// follows docs/reference-controllers.md for the valid-spec rows and answers an invalid spec with the
// observed children's last-applied copies and a Stalled status. src/bench/run checks that it answers
// the benchmark's WebApp requests byte for byte as metahook does before comparing the two.
//
//	go run . 127.0.0.1:18184
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"
)

type meta struct {
	Name        string            `json:"name"`
	Namespace   string            `json:"namespace"`
	Generation  int64             `json:"generation"`
	Annotations map[string]string `json:"annotations"`
}

type condition struct {
	LastTransitionTime string `json:"lastTransitionTime"`
	Message            string `json:"message"`
	ObservedGeneration int64  `json:"observedGeneration"`
	Reason             string `json:"reason"`
	Status             string `json:"status"`
	Type               string `json:"type"`
}

type envVar = map[string]interface{}

type webAppSpec struct {
	Image     *string                `json:"image"`
	Replicas  *int                   `json:"replicas"`
	Port      *int                   `json:"port"`
	Env       []envVar               `json:"env"`
	Resources map[string]interface{} `json:"resources"`
}

type webApp struct {
	Metadata meta       `json:"metadata"`
	Spec     webAppSpec `json:"spec"`
	Status   struct {
		Conditions []condition `json:"conditions"`
	} `json:"status"`
}

type observedContainer struct {
	Name  string `json:"name"`
	Image string `json:"image"`
	Ports []struct {
		Name          string `json:"name"`
		ContainerPort *int   `json:"containerPort"`
	} `json:"ports"`
}

type observedDeployment struct {
	Metadata meta `json:"metadata"`
	Spec     struct {
		Replicas *int `json:"replicas"`
		Template struct {
			Spec struct {
				Containers []observedContainer `json:"containers"`
			} `json:"spec"`
		} `json:"template"`
	} `json:"spec"`
	Status struct {
		ObservedGeneration int64 `json:"observedGeneration"`
		Replicas           int   `json:"replicas"`
		ReadyReplicas      int   `json:"readyReplicas"`
		AvailableReplicas  int   `json:"availableReplicas"`
		UpdatedReplicas    int   `json:"updatedReplicas"`
		Conditions         []struct {
			Type    string `json:"type"`
			Status  string `json:"status"`
			Reason  string `json:"reason"`
			Message string `json:"message"`
		} `json:"conditions"`
	} `json:"status"`
}

type observedService struct {
	Metadata meta `json:"metadata"`
	Spec     struct {
		Ports []struct {
			Name string `json:"name"`
			Port int    `json:"port"`
		} `json:"ports"`
	} `json:"spec"`
}

type syncRequest struct {
	Parent   webApp `json:"parent"`
	Children struct {
		Deployments map[string]observedDeployment `json:"Deployment.apps/v1"`
		Services    map[string]observedService    `json:"Service.v1"`
	} `json:"children"`
}

// Output types: fields in the order of their JSON names, as metahook (and Go maps) write them.
type labels = map[string]string

type childMeta struct {
	Labels    labels `json:"labels"`
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
}

type containerPort struct {
	ContainerPort int    `json:"containerPort"`
	Name          string `json:"name"`
}

type container struct {
	Env            []envVar               `json:"env,omitempty"`
	Image          string                 `json:"image"`
	Name           string                 `json:"name"`
	Ports          []containerPort        `json:"ports"`
	ReadinessProbe map[string]interface{} `json:"readinessProbe"`
	Resources      map[string]interface{} `json:"resources,omitempty"`
}

type deployment struct {
	APIVersion string    `json:"apiVersion"`
	Kind       string    `json:"kind"`
	Metadata   childMeta `json:"metadata"`
	Spec       struct {
		Replicas int `json:"replicas"`
		Selector struct {
			MatchLabels labels `json:"matchLabels"`
		} `json:"selector"`
		Template struct {
			Metadata struct {
				Labels labels `json:"labels"`
			} `json:"metadata"`
			Spec struct {
				Containers []container `json:"containers"`
			} `json:"spec"`
		} `json:"template"`
	} `json:"spec"`
}

type servicePort struct {
	Name       string `json:"name"`
	Port       int    `json:"port"`
	TargetPort string `json:"targetPort"`
}

type service struct {
	APIVersion string    `json:"apiVersion"`
	Kind       string    `json:"kind"`
	Metadata   childMeta `json:"metadata"`
	Spec       struct {
		Ports    []servicePort `json:"ports"`
		Selector labels        `json:"selector"`
		Type     string        `json:"type"`
	} `json:"spec"`
}

type webAppStatus struct {
	AvailableReplicas int         `json:"availableReplicas"`
	Conditions        []condition `json:"conditions"`
	ReadyReplicas     int         `json:"readyReplicas"`
	Replicas          int         `json:"replicas"`
	UpdatedReplicas   int         `json:"updatedReplicas"`
	URL               string      `json:"url,omitempty"`
}

type syncResponse struct {
	Children []interface{} `json:"children"`
	Status   webAppStatus  `json:"status"`
}

type invalidSpec string

var cIdentifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
var rfc3339 = regexp.MustCompile(`^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$`)

type desired struct {
	image     string
	replicas  int
	port      int
	env       []envVar
	resources map[string]interface{}
}

func validate(spec webAppSpec) (desired, invalidSpec) {
	d := desired{replicas: 1, port: 8080, env: spec.Env, resources: spec.Resources}
	if spec.Image == nil || *spec.Image == "" {
		return d, "spec.image: is required"
	}
	if strings.ContainsAny(*spec.Image, " \t\n\r\v\f") {
		return d, invalidSpec(fmt.Sprintf("spec.image: must not contain whitespace, got %q", *spec.Image))
	}
	d.image = *spec.Image
	if spec.Replicas != nil {
		d.replicas = *spec.Replicas
	}
	if d.replicas < 0 || d.replicas > 1000 {
		return d, invalidSpec(fmt.Sprintf("spec.replicas: must be between 0 and 1000, got %d", d.replicas))
	}
	if spec.Port != nil {
		d.port = *spec.Port
	}
	if d.port < 1 || d.port > 65535 {
		return d, invalidSpec(fmt.Sprintf("spec.port: must be between 1 and 65535, got %d", d.port))
	}
	seen := map[string]bool{}
	for i, e := range spec.Env {
		name, _ := e["name"].(string)
		if !cIdentifier.MatchString(name) {
			return d, invalidSpec(fmt.Sprintf("spec.env[%d].name: must be a C identifier, got %q", i, name))
		}
		if seen[name] {
			return d, invalidSpec(fmt.Sprintf("spec.env[%d].name: %s appears twice", i, name))
		}
		seen[name] = true
	}
	return d, ""
}

// conditions are Ready, Reconciling and Stalled; a condition keeps its lastTransitionTime while its status holds.
func conditions(parent webApp, ready, reconciling, stalled bool, reason, message string) []condition {
	previous := map[string]condition{}
	for _, c := range parent.Status.Conditions {
		if _, ok := previous[c.Type]; !ok {
			previous[c.Type] = c
		}
	}
	now := time.Now().UTC().Truncate(time.Second).Format(time.RFC3339)
	one := func(kind string, value bool) condition {
		status := "False"
		if value {
			status = "True"
		}
		since := now
		if before, ok := previous[kind]; ok && before.Status == status && rfc3339.MatchString(before.LastTransitionTime) {
			since = before.LastTransitionTime
		}
		return condition{since, message, parent.Metadata.Generation, reason, status, kind}
	}
	return []condition{one("Ready", ready), one("Reconciling", reconciling), one("Stalled", stalled)}
}

func rollout(observed *observedDeployment, app desired) (ready, reconciling, stalled bool, reason, message string) {
	if observed == nil {
		return false, true, false, "Creating", "waiting for the Deployment to be created"
	}
	for _, c := range observed.Status.Conditions {
		if c.Type == "Progressing" && c.Status == "False" && c.Reason == "ProgressDeadlineExceeded" {
			text := c.Message
			if text == "" {
				text = "no message"
			}
			return false, false, true, "ProgressDeadlineExceeded", "the Deployment exceeded its progress deadline: " + text
		}
	}
	s := observed.Status
	if finished(observed, app) {
		return true, false, false, "Available", fmt.Sprintf("%d/%d replicas available", s.AvailableReplicas, app.replicas)
	}
	return false, true, false, "RollingOut", fmt.Sprintf("%d/%d replicas available, %d/%d updated",
		s.AvailableReplicas, app.replicas, s.UpdatedReplicas, app.replicas)
}

func finished(d *observedDeployment, app desired) bool {
	replicas := 1
	if d.Spec.Replicas != nil {
		replicas = *d.Spec.Replicas
	}
	imageOK, portOK := false, false
	for _, c := range d.Spec.Template.Spec.Containers {
		if c.Name == "app" {
			imageOK = c.Image == app.image
			for _, p := range c.Ports {
				if p.Name == "http" && p.ContainerPort != nil {
					portOK = *p.ContainerPort == app.port
					break
				}
			}
			break
		}
	}
	s := d.Status
	return s.ObservedGeneration >= d.Metadata.Generation && replicas == app.replicas && imageOK && portOK &&
		s.UpdatedReplicas >= app.replicas && s.AvailableReplicas >= app.replicas && s.Replicas <= app.replicas
}

func sync(req syncRequest) (syncResponse, error) {
	parent := req.Parent
	name, namespace := parent.Metadata.Name, parent.Metadata.Namespace
	var observed *observedDeployment
	if d, ok := req.Children.Deployments[name]; ok {
		observed = &d
	}
	status := webAppStatus{}
	if observed != nil {
		s := observed.Status
		status = webAppStatus{AvailableReplicas: s.AvailableReplicas, ReadyReplicas: s.ReadyReplicas, Replicas: s.Replicas, UpdatedReplicas: s.UpdatedReplicas}
	}
	app, invalid := validate(parent.Spec)
	if invalid != "" {
		status.Conditions = conditions(parent, false, false, true, "InvalidSpec", string(invalid))
		if svc, ok := req.Children.Services[name]; ok {
			for _, p := range svc.Spec.Ports {
				if p.Name == "http" {
					status.URL = fmt.Sprintf("http://%s.%s.svc:%d", name, namespace, p.Port)
					break
				}
			}
		}
		children, err := lastApplied(req)
		return syncResponse{Children: children, Status: status}, err
	}
	ready, reconciling, stalled, reason, message := rollout(observed, app)
	status.Conditions = conditions(parent, ready, reconciling, stalled, reason, message)
	status.URL = fmt.Sprintf("http://%s.%s.svc:%d", name, namespace, app.port)
	selector := labels{"app.kubernetes.io/instance": name, "app.kubernetes.io/name": "webapp"}
	common := labels{"app.kubernetes.io/instance": name, "app.kubernetes.io/managed-by": "metahook", "app.kubernetes.io/name": "webapp"}

	var d deployment
	d.APIVersion, d.Kind = "apps/v1", "Deployment"
	d.Metadata = childMeta{common, name, namespace}
	d.Spec.Replicas = app.replicas
	d.Spec.Selector.MatchLabels = selector
	d.Spec.Template.Metadata.Labels = selector
	c := container{Env: app.env, Image: app.image, Name: "app", Ports: []containerPort{{app.port, "http"}},
		ReadinessProbe: map[string]interface{}{"tcpSocket": map[string]interface{}{"port": "http"}}}
	if hasResources(app.resources) {
		c.Resources = app.resources
	}
	d.Spec.Template.Spec.Containers = []container{c}

	var s service
	s.APIVersion, s.Kind = "v1", "Service"
	s.Metadata = childMeta{common, name, namespace}
	s.Spec.Ports = []servicePort{{"http", app.port, "http"}}
	s.Spec.Selector = selector
	s.Spec.Type = "ClusterIP"
	return syncResponse{Children: []interface{}{d, s}, Status: status}, nil
}

func hasResources(r map[string]interface{}) bool {
	for _, key := range []string{"limits", "requests", "claims"} {
		switch v := r[key].(type) {
		case map[string]interface{}:
			if len(v) > 0 {
				return true
			}
		case []interface{}:
			if len(v) > 0 {
				return true
			}
		}
	}
	return false
}

// lastApplied keeps every observed child as Metacontroller last applied it, sorted by kind then name.
func lastApplied(req syncRequest) ([]interface{}, error) {
	type keyed struct {
		key, name, text string
	}
	var all []keyed
	for n, d := range req.Children.Deployments {
		all = append(all, keyed{"Deployment.apps/v1", n, d.Metadata.Annotations["metacontroller.k8s.io/last-applied-configuration"]})
	}
	for n, s := range req.Children.Services {
		all = append(all, keyed{"Service.v1", n, s.Metadata.Annotations["metacontroller.k8s.io/last-applied-configuration"]})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].key != all[j].key {
			return all[i].key < all[j].key
		}
		return all[i].name < all[j].name
	})
	children := []interface{}{}
	for _, k := range all {
		if k.text == "" {
			return nil, fmt.Errorf("observed %s %s has no last-applied configuration", k.key, k.name)
		}
		var child map[string]interface{}
		decoder := json.NewDecoder(strings.NewReader(k.text))
		decoder.UseNumber()
		if err := decoder.Decode(&child); err != nil {
			return nil, err
		}
		children = append(children, child)
	}
	return children, nil
}

func handleSync(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var req syncRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, "not a sync request: "+err.Error(), http.StatusBadRequest)
		return
	}
	resp, err := sync(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	var out bytes.Buffer
	encoder := json.NewEncoder(&out)
	encoder.SetEscapeHTML(false)
	if err := encoder.Encode(resp); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(bytes.TrimSuffix(out.Bytes(), []byte("\n")))
}

func main() {
	address := "127.0.0.1:8080"
	if len(os.Args) > 1 {
		address = os.Args[1]
	}
	http.HandleFunc("/webapp/sync", handleSync)
	http.HandleFunc("/readyz", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ready\n") })
	log.Fatal(http.ListenAndServe(address, nil))
}
