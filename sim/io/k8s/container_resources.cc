// Containers' requests and limits, and the pod's effective requests (Kubernetes' rules:
// a resource with a limit and no request requests its limit; an extended resource's request
// must equal its limit; init containers run before the others, so the pod needs the larger
// of the containers' sum and the largest init container; sidecars run beside the others).

#include <algorithm>
#include <map>

#include "sim/io/k8s/pod_spec_model.h"
#include "sim/io/quantity.h"
#include "sim/io/scenario_sections_json.h"

namespace migsim::k8s {
namespace {

// One container's requests (or limits): cpu, memory and extended resources by name.
struct Demand {
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
  std::map<std::string, int64_t> extended;
  std::map<std::string, ManifestPlace> places;  // where each extended amount was written

  void Add(const Demand& other) {
    cpu_milli += other.cpu_milli;
    memory_mib += other.memory_mib;
    for (const auto& [name, count] : other.extended) extended[name] += count;
  }
  void Max(const Demand& other) {
    cpu_milli = std::max(cpu_milli, other.cpu_milli);
    memory_mib = std::max(memory_mib, other.memory_mib);
    for (const auto& [name, count] : other.extended) {
      extended[name] = std::max(extended[name], count);
    }
  }
};

int64_t ParseAmount(const ManifestNode& value, ManifestLog* log,
                    Result<int64_t> (*parse)(std::string_view)) {
  const std::string text = value.String(log);
  if (!log->ok()) return 0;
  Result<int64_t> parsed = parse(text);
  if (!parsed.ok()) {
    value.Fail(log, "not a quantity: '" + text + "'");
    return 0;
  }
  return parsed.value();
}

void ReadExtended(const std::string& name, const ManifestNode& value, ManifestLog* log,
                  Demand* out) {
  if (const std::string problem = io::ExtendedResourceProblem(name); !problem.empty()) {
    value.Fail(log, problem);
    return;
  }
  const int64_t milli = ParseAmount(value, log, &io::ParseCpuMilli);
  if (!log->ok()) return;
  if (milli % 1000 != 0 || milli / 1000 > io::kMaxInt) {
    value.Fail(log, "an extended resource is a whole number up to " + std::to_string(io::kMaxInt) +
                        ", got '" + value.String(log) + "'");
    return;
  }
  if (milli > 0) out->extended[name] = milli / 1000;
  out->places[name] = value.place();
}

Demand ReadDemand(const ManifestNode& map, ManifestLog* log) {
  Demand out;
  for (const std::string& name : map.Keys(log)) {
    const ManifestNode value = map[name];
    if (name == "cpu") {
      out.cpu_milli = ParseAmount(value, log, &io::ParseCpuMilli);
    } else if (name == "memory") {
      out.memory_mib = ParseAmount(value, log, &io::ParseMemoryMib);
    } else if (name == "ephemeral-storage" || name.starts_with("hugepages-")) {
      value.Warn(log, "nodes in migsim have no " + name + ": the request is not checked");
    } else if (name.find('/') == std::string::npos) {
      value.Fail(log, "unknown resource '" + name +
                          "' (expected cpu, memory or an extended resource with a domain, such "
                          "as nvidia.com/gpu)");
    } else {
      ReadExtended(name, value, log, &out);
    }
    if (!log->ok()) break;
  }
  return out;
}

void WarnHostPorts(const ManifestNode& container, ManifestLog* log) {
  for (const ManifestNode& port : container["ports"].Elements(log)) {
    if (const ManifestNode host = port["hostPort"]; host.present()) {
      host.Warn(log, "host ports and kube-scheduler's NodePorts filter are not modelled");
    }
  }
}

// A container's requests, limits filling in for absent requests.
Demand ReadContainer(const ManifestNode& c, ManifestLog* log, PodSpecModel* out) {
  if (!c.ExpectMap(log)) return {};
  const ManifestNode image = c["image"];
  out->images.push_back({image.String(log), image.present() ? image.place() : c.place()});
  const ManifestNode resources = c["resources"];
  if (out->resources_place.file.empty()) out->resources_place = resources.place();
  const Demand limits = ReadDemand(resources["limits"], log);
  Demand requests = ReadDemand(resources["requests"], log);
  if (!resources["requests"]["cpu"].present()) requests.cpu_milli = limits.cpu_milli;
  if (!resources["requests"]["memory"].present()) requests.memory_mib = limits.memory_mib;
  for (const auto& [name, count] : limits.extended) {
    const auto it = requests.extended.find(name);
    if (it == requests.extended.end()) {
      requests.extended[name] = count;
    } else if (it->second != count && log->ok()) {
      log->Fail(requests.places.at(name), "must equal the limit (" + std::to_string(count) +
                                              "): extended resources cannot be overcommitted");
    }
  }
  for (const ManifestNode& claim : resources["claims"].Elements(log)) {
    const ManifestNode name = claim["name"];
    if (!name.present()) {
      claim.Fail(log, "missing required field 'name'");
      break;
    }
    out->container_claims.emplace_back(name.String(log), name.place());
  }
  WarnHostPorts(c, log);
  return requests;
}

}  // namespace

void ReadContainerResources(const ManifestNode& spec, ManifestLog* log, PodSpecModel* out) {
  const ManifestNode containers = spec["containers"];
  const std::vector<ManifestNode> list = containers.Elements(log);
  if (log->ok() && list.empty()) {
    containers.Fail(log, "a pod needs at least one container");
    return;
  }
  ReadContainerLists(list, spec["initContainers"].Elements(log), log, out);
}

void ReadContainerLists(const std::vector<ManifestNode>& containers,
                        const std::vector<ManifestNode>& init_containers, ManifestLog* log,
                        PodSpecModel* out) {
  Demand running, init;
  for (const ManifestNode& c : containers) running.Add(ReadContainer(c, log, out));
  for (const ManifestNode& c : init_containers) {
    const Demand d = ReadContainer(c, log, out);
    if (c["restartPolicy"].String(log) == "Always") {
      running.Add(d);  // a sidecar: it keeps running beside the containers
    } else {
      init.Max(d);
    }
  }
  running.Max(init);
  out->cpu_milli = running.cpu_milli;
  out->memory_mib = running.memory_mib;
  for (const auto& [name, count] : running.extended) {
    out->extended.emplace_back(name, static_cast<int32_t>(std::min<int64_t>(count, io::kMaxInt)));
  }
}

}  // namespace migsim::k8s
