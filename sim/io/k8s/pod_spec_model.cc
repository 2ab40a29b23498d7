// A pod spec's scheduling fields. Fields that cannot change where or when a pod is scheduled
// (probes, volumes, env, ports, securityContext, ...) are ignored; those that could and that
// migsim does not model are warnings (kUnmodelled); schedulerName other than kube-scheduler's
// is an error.

#include "sim/io/k8s/pod_spec_model.h"

#include <algorithm>
#include <array>
#include <utility>

#include "sim/io/json_reader.h"

namespace migsim::k8s {
namespace {

constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kUnmodelled = {{
    {"overhead", "the RuntimeClass overhead is not added to the pod's requests"},
    {"nodeName", "a pod bound by name bypasses the scheduler; migsim schedules it"},
    {"schedulingGates", "a gated pod waits until its gates are removed; migsim schedules it"},
    {"hostNetwork", "host ports and the NodePorts filter are not modelled"},
    {"runtimeClassName", "a RuntimeClass's node scheduling and overhead are not modelled"},
    {"preemptionPolicy", "set by the PriorityClass; the pod's own value is not read"},
    {"priority", "set from the PriorityClass; the pod's own value is not read"},
}};

std::string TopologyKeys(const ManifestNode& list, ManifestLog* log) {
  std::string keys;
  for (const ManifestNode& c : list.Elements(log)) {
    keys += (keys.empty() ? "" : ", ") + c["topologyKey"].String(log, "?");
  }
  return keys;
}

// One entry of spec.resourceClaims (a template's claim or a shared ResourceClaim); false
// after reporting a problem.
bool ReadPodClaim(const ManifestNode& entry, ManifestLog* log, PodSpecModel* out) {
  if (!entry.ExpectMap(log)) return false;
  const ManifestNode name = entry["name"], tmpl = entry["resourceClaimTemplateName"],
                     shared = entry["resourceClaimName"];
  PodClaimRef ref{.name = name.String(log),
                  .name_place = name.present() ? name.place() : entry.place(),
                  .template_name = tmpl.String(log),
                  .template_place = tmpl.place(),
                  .claim_name = shared.String(log),
                  .claim_place = shared.place()};
  if (tmpl.present() && shared.present()) {
    shared.Fail(log, "give either resourceClaimName or resourceClaimTemplateName, not both");
  } else if (ref.name.empty()) {
    entry.Fail(log, "missing required field 'name'");
  } else if (ref.template_name.empty() && ref.claim_name.empty()) {
    entry.Fail(log, "missing required field 'resourceClaimTemplateName' (or resourceClaimName)");
  }
  for (const PodClaimRef& other : out->claims) {
    if (other.name == ref.name) name.Fail(log, "claim name '" + ref.name + "' is used twice");
  }
  if (!log->ok()) return false;
  out->claims.push_back(std::move(ref));
  return true;
}

// spec.resourceClaims (the templates are looked up when the scenario is built: they may be
// in any file), then the containers' claims, which must name them.
void ReadPodClaims(const ManifestNode& spec, ManifestLog* log, PodSpecModel* out) {
  for (const ManifestNode& entry : spec["resourceClaims"].Elements(log)) {
    if (!ReadPodClaim(entry, log, out)) return;
  }
  std::vector<std::string> names;
  for (const PodClaimRef& ref : out->claims) names.push_back(ref.name);
  for (const auto& [name, place] : out->container_claims) {
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      return log->Fail(place, io::UnknownNameMessage("claim", name, names) +
                                  ": a container's resources.claims name the pod's "
                                  "spec.resourceClaims");
    }
  }
}

// kube-scheduler's own name; other names belong to other schedulers (Volcano, KAI, ...).
constexpr std::string_view kDefaultScheduler = "default-scheduler";

void ReadPolicyFields(const ManifestNode& spec, ManifestLog* log, PodSpecModel* out) {
  CheckSchedulerName(spec["schedulerName"], log);
  if (const ManifestNode p = spec["priorityClassName"]; p.present()) {
    out->priority_class = p.String(log);
    out->priority_place = p.place();
  }
  if (const ManifestNode grace = spec["terminationGracePeriodSeconds"]; grace.present()) {
    out->termination_grace =
        SimTime::Seconds(static_cast<double>(grace.Int(log, 30, 0, 1'000'000'000)));
  }
  out->restart_policy = spec["restartPolicy"].String(log);
}

PodSpecModel ReadPodSpec(const ManifestNode& spec, ManifestLog* log) {
  PodSpecModel out;
  if (!spec.present()) {
    spec.Fail(log, "missing required field");
    return out;
  }
  if (!spec.ExpectMap(log)) return out;
  ReadContainerResources(spec, log, &out);
  ReadSchedulingFields(spec, log, &out);
  return out;
}

}  // namespace

void CheckSchedulerName(const ManifestNode& name, ManifestLog* log) {
  if (!name.present()) return;
  const std::string scheduler = name.String(log);
  if (log->ok() && scheduler != kDefaultScheduler) {
    name.Fail(log, "pods for scheduler '" + scheduler +
                       "' are never scheduled by kube-scheduler, the only scheduler migsim "
                       "simulates (remove schedulerName or set it to default-scheduler)");
  }
}

void ReadSchedulingFields(const ManifestNode& spec, ManifestLog* log, PodSpecModel* out_model) {
  PodSpecModel& out = *out_model;
  out.node_selector = spec["nodeSelector"].StringMap(log);
  if (const ManifestNode affinity = spec["affinity"]; affinity.present()) {
    ReadAffinity(affinity, log, &out);
  }
  out.tolerations = ReadTolerationList(spec["tolerations"], log);
  ReadPolicyFields(spec, log, &out);
  if (const ManifestNode spread = spec["topologySpreadConstraints"]; spread.present()) {
    spread.Warn(log, "topology spread constraints (on " + TopologyKeys(spread, log) +
                         ") are not modelled: pods are placed as if unconstrained");
  }
  for (const auto& [field, why] : kUnmodelled) {
    if (const ManifestNode f = spec[field]; f.present()) f.Warn(log, std::string(why));
  }
  ReadPodClaims(spec, log, &out);
}

PodTemplateModel ReadPodTemplate(const ManifestNode& root, ManifestLog* log) {
  PodTemplateModel model;
  model.place = root.place();
  if (!root.present()) {
    root.Fail(log, "missing required field");
    return model;
  }
  if (!root.ExpectMap(log)) return model;
  model.labels = root["metadata"]["labels"].StringMap(log);
  model.annotations = root["metadata"]["annotations"].StringMap(log);
  if (log->ok()) model.spec = ReadPodSpec(root["spec"], log);
  return model;
}

}  // namespace migsim::k8s
