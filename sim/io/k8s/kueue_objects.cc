// Kueue's ResourceFlavor, ClusterQueue and LocalQueue (kueue.x-k8s.io/v1beta1), written as
// members of the scenario's JSON `kueue` section (whose fields are Kueue's own, in its
// camelCase), so that one loader (sim/io/kueue_json.cc) checks both and they model the same.
// What the JSON section has no field for: the namespaceSelector becomes `namespaces`; fields
// that would change admission and are not modelled are errors; the rest warnings.

#include <set>

#include "sim/io/k8s/manifest_json.h"
#include "sim/io/k8s/workload_objects.h"

namespace migsim::k8s {
namespace {

using io::Json;
void FailEach(const ManifestNode& parent, ManifestLog* log,
              std::initializer_list<std::pair<const char*, const char*>> fields) {
  for (const auto& [field, why] : fields) {
    if (const ManifestNode f = parent[field]; f.present()) f.Fail(log, why);
  }
}

void RequireStopPolicyNone(const ManifestNode& spec, ManifestLog* log) {
  if (spec["stopPolicy"].Choice(log, "stopPolicy", {"None", "Hold", "HoldAndDrain"}) != 0) {
    spec["stopPolicy"].Fail(log, "a stopped queue admits nothing new: not modelled");
  }
}

void ReadFlavor(const ManifestNode& spec, ManifestLog* log, ManifestJsonBuilder* b, Json* out) {
  FailEach(spec, log,
           {{"nodeTaints",
             "a flavor's node taints (admitting only workloads that tolerate them) are not "
             "modelled: taint the nodes in the cluster and give the pods tolerations"},
            {"tolerations", "tolerations Kueue adds to admitted pods are not modelled"}});
  if (const ManifestNode topology = spec["topologyName"]; topology.present()) {
    topology.Warn(log, "topology-aware scheduling is not modelled");
  }
  if (const ManifestNode labels = spec["nodeLabels"]; labels.present()) {
    (*out)["nodeLabels"] = b->ToJson(labels, "/nodeLabels");
  }
}

constexpr std::string_view kNamespaceName = "kubernetes.io/metadata.name";

// The namespaces a selector on kubernetes.io/metadata.name admits (intersected into `names`:
// nullopt = every namespace); any other key is an error, namespaces having no other labels.
void SelectNames(const ManifestNode& at, const std::string& key, std::set<std::string> values,
                 ManifestLog* log, std::optional<std::set<std::string>>* names) {
  if (key != kNamespaceName) {
    return at.Fail(log, "migsim's namespaces have no labels but " + std::string(kNamespaceName) +
                            ": select namespaces by name");
  }
  if (!*names) return names->emplace(std::move(values)), void();
  std::set<std::string> both;
  for (const std::string& v : values) {
    if ((*names)->count(v) > 0) both.insert(v);
  }
  **names = std::move(both);
}

void ReadNamespaceSelector(const ManifestNode& spec, ManifestLog* log, ManifestJsonBuilder* b,
                           Json* out) {
  const ManifestNode selector = spec["namespaceSelector"];
  if (!selector.present()) {
    return spec.Fail(log,
                     "missing namespaceSelector: Kueue's default selects no namespace, so the "
                     "queue would admit nothing (namespaceSelector: {} selects every namespace)");
  }
  std::optional<std::set<std::string>> names;
  const ManifestNode labels = selector["matchLabels"];
  for (const auto& [key, value] : labels.StringMap(log)) {
    SelectNames(labels[key], key, {value}, log, &names);
  }
  for (const ManifestNode& e : selector["matchExpressions"].Elements(log)) {
    if (e["operator"].String(log) != "In" && log->ok()) {
      return e["operator"].Fail(log, "only operator In is modelled on namespace names");
    }
    std::set<std::string> values;
    for (const ManifestNode& v : e["values"].Elements(log)) values.insert(v.String(log));
    SelectNames(e["key"], e["key"].String(log), std::move(values), log, &names);
  }
  if (!names || !log->ok()) return;
  if (names->empty()) return selector.Fail(log, "selects no namespace");
  (*out)["namespaces"] = Json(std::vector<std::string>(names->begin(), names->end()));
  b->Place("/namespaces", selector.place());
}

void ReadClusterQueue(const ManifestNode& spec, ManifestLog* log, ManifestJsonBuilder* b,
                      Json* out) {
  FailEach(spec, log,
           {{"admissionChecks",
             "admission checks (external controllers approving workloads) are not modelled"},
            {"admissionChecksStrategy",
             "admission checks (external controllers approving workloads) are not modelled"}});
  RequireStopPolicyNone(spec, log);
  if (const ManifestNode f = spec["flavorFungibility"]; f.present()) {
    f.Warn(log, "not modelled: a workload takes the first flavor that fits, borrowing if need be");
  }
  const ManifestNode borrow = spec["preemption"]["borrowWithinCohort"];
  if (borrow["policy"].Choice(log, "policy", {"Never", "LowerPriority"}) != 0) {
    borrow["policy"].Fail(log, "preempting while borrowing is not modelled (use Never)");
  }
  b->CopyMembers(spec,
                 {"namespaceSelector", "admissionChecks", "admissionChecksStrategy", "stopPolicy",
                  "flavorFungibility", "preemption"},
                 "", out);
  if (const ManifestNode preemption = spec["preemption"]; preemption.present()) {
    Json p = b->ToJson(preemption, "/preemption");
    if (p.is_object()) p.erase("borrowWithinCohort");
    (*out)["preemption"] = std::move(p);
  }
  ReadNamespaceSelector(spec, log, b, out);
}

void ReadLocalQueue(const ManifestNode& doc, const ManifestNode& spec, const std::string& ns,
                    ManifestLog* log, ManifestJsonBuilder* b, Json* out) {
  RequireStopPolicyNone(spec, log);
  if (const ManifestNode f = spec["fairSharing"]; f.present()) f.Warn(log, "not modelled");
  (*out)["namespace"] = ns;
  const ManifestNode metadata = doc["metadata"];
  b->Place("/namespace",
           metadata["namespace"].present() ? metadata["namespace"].place() : metadata.place());
  if (const ManifestNode cq = spec["clusterQueue"]; cq.present()) {
    (*out)["clusterQueue"] = b->ToJson(cq, "/clusterQueue");
  }
}

}  // namespace

KueueObject ReadKueueObject(const ManifestNode& doc, const std::string& ns, ManifestLog* log) {
  KueueObject out;
  ManifestJsonBuilder b(log, &out);
  const std::string kind = doc["kind"].String(log);
  const ManifestNode spec = doc["spec"];
  // Errors about the object as a whole (a missing field) are reported at its spec.
  b.Place("", spec.present() ? spec.place() : doc.place());
  if (spec.present() && !spec.ExpectMap(log)) return out;
  Json json = Json::object();
  if (kind == "ResourceFlavor") {
    ReadFlavor(spec, log, &b, &json);
  } else if (kind == "ClusterQueue") {
    if (spec.present()) {
      ReadClusterQueue(spec, log, &b, &json);
    } else {
      doc.Fail(log, "missing required field 'spec'");
    }
  } else {
    ReadLocalQueue(doc, spec, ns, log, &b, &json);
  }
  out.json = json.dump();
  return out;
}

}  // namespace migsim::k8s
