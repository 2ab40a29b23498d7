// `kueue`: ResourceFlavors, ClusterQueues and LocalQueues (Kueue v1beta1's fields, in its
// camelCase, so that specs can be pasted from Kueue YAML turned into JSON). The managed
// workloads are checked against them in kueue_workloads_json.cc.

#include <algorithm>

#include "sim/engine/node_runtime.h"
#include "sim/io/quantity.h"
#include "sim/io/scenario_sections_json.h"

namespace migsim::io {
namespace {

std::vector<std::string> Names(const auto& items) {
  std::vector<std::string> names;
  for (const auto& item : items) names.push_back(item.name);
  return names;
}

template <typename T>
int32_t IndexOf(const std::vector<T>& items, const std::string& name) {
  const auto it =
      std::find_if(items.begin(), items.end(), [&](const T& i) { return i.name == name; });
  return it == items.end() ? -1 : static_cast<int32_t>(it - items.begin());
}

// Kueue's enums: the name at `ref` as its index in `names`.
template <typename E>
E ReadEnum(LoadContext* ctx, const ObjectReader& r, std::string_view key,
           const std::vector<std::string>& names, E fallback) {
  if (!r.Has(key)) return fallback;
  const JsonRef ref = r.Field(key);
  const std::optional<std::string> name = ReadString(ctx, ref);
  if (!name) return fallback;
  const auto it = std::find(names.begin(), names.end(), *name);
  if (it == names.end()) {
    ctx->Fail(ref.pointer(), UnknownNameMessage(std::string(key), *name, names));
    return fallback;
  }
  return static_cast<E>(it - names.begin());
}

void LoadFlavors(LoadContext* ctx, const JsonRef& ref, KueueSpec* kueue) {
  if (!ExpectNamedObject(ctx, ref, "ResourceFlavor")) return;
  for (const auto& [name, value] : ref.value().items()) {
    ObjectReader r(ctx, ref.Member(name), {"nodeLabels"});
    ResourceFlavorSpec flavor{name, {}};
    if (r.Has("nodeLabels")) flavor.node_labels = ReadLabels(ctx, r.Field("nodeLabels"));
    kueue->flavors.push_back(std::move(flavor));
    if (!ctx->ok()) return;
  }
}

// The nodes as the scheduler first sees them, for "no node offers" checks.
std::vector<NodeInfo> NodesAtStart(const Scenario& scenario, ResourceTable* resources) {
  std::vector<NodeInfo> nodes;
  for (const NodeSpec& spec : scenario.cluster.nodes) {
    NodeRuntime(spec, NodeId(static_cast<NodeId::Rep>(nodes.size())), *resources,
                nodes.emplace_back());
  }
  return nodes;
}

// A quota for a resource that no node of the flavor offers can never be used: a typo
// (nvidia.com/gpus) or the wrong flavor. Skipped while MIG reconfigurations may change what
// nodes offer.
void CheckOffered(LoadContext* ctx, const JsonRef& ref, const std::string& resource,
                  const ResourceFlavorSpec& flavor, const Scenario& scenario) {
  if (resource == "cpu" || resource == "memory" || !scenario.cluster.reconfigurations.empty()) {
    return;
  }
  ResourceTable resources = scenario.resources;
  const ResourceId id = resources.Intern(resource);
  for (const NodeInfo& node : NodesAtStart(scenario, &resources)) {
    if (MatchesSelector(node.labels, flavor.node_labels) && node.Allocatable(id) > 0) return;
  }
  ctx->Fail(ref.pointer(), "no node of flavor '" + flavor.name + "' offers " + resource +
                               ": the quota could never be used");
}

int64_t ReadAmount(LoadContext* ctx, const JsonRef& ref, const std::string& resource) {
  if (resource == "cpu") return ReadQuantity(ctx, ref, &ParseCpuMilli);
  if (resource == "memory") return ReadQuantity(ctx, ref, &ParseMemoryMib);
  return ReadInt(ctx, ref, 0, std::numeric_limits<int64_t>::max()).value_or(0);
}

// One entry of a flavor's `resources`: {name, nominalQuota, borrowingLimit, lendingLimit}.
ResourceQuota LoadQuota(LoadContext* ctx, const JsonRef& ref, const std::string& resource,
                        bool cohort) {
  ObjectReader r(ctx, ref, {"name", "nominalQuota", "borrowingLimit", "lendingLimit"});
  ResourceQuota quota;
  if (!r.Require("nominalQuota")) return quota;
  auto amount = [&](std::string_view key) -> std::optional<int64_t> {
    if (!r.Has(key) || !ctx->ok()) return std::nullopt;
    const JsonRef field = r.Field(key);
    if (field.value().is_number() && field.value().get<double>() < 0) {
      ctx->Fail(field.pointer(), "must be >= 0");
      return std::nullopt;
    }
    if (key != "nominalQuota" && !cohort) {
      ctx->Fail(field.pointer(), std::string(key) +
                                     " needs a cohort: without one there is "
                                     "no queue to borrow from or lend to");
      return std::nullopt;
    }
    return ReadAmount(ctx, field, resource);
  };
  quota.nominal = amount("nominalQuota").value_or(0);
  quota.borrowing_limit = amount("borrowingLimit");
  quota.lending_limit = amount("lendingLimit");
  if (ctx->ok() && quota.lending_limit && *quota.lending_limit > quota.nominal) {
    ctx->Fail(r.Field("lendingLimit").pointer(),
              "must be <= nominalQuota (" + std::to_string(quota.nominal) + ")");
  }
  return quota;
}

// A flavor of a resource group: its `resources` list the group's coveredResources in order.
FlavorQuotas LoadFlavorQuotas(LoadContext* ctx, const JsonRef& ref, const ResourceGroup& group,
                              const KueueSpec& kueue, bool cohort, const Scenario& scenario) {
  ObjectReader r(ctx, ref, {"name", "resources"});
  FlavorQuotas out;
  const std::string name = r.NonEmptyString("name");
  if (!r.Require("resources") || !ctx->ok()) return out;
  out.flavor = IndexOf(kueue.flavors, name);
  if (out.flavor < 0) {
    ctx->Fail(r.Field("name").pointer(),
              UnknownNameMessage("ResourceFlavor", name, Names(kueue.flavors)));
    return out;
  }
  const JsonRef list = r.Field("resources");
  if (!ExpectArray(ctx, list)) return out;
  std::string covered;
  for (int32_t c : group.covered) covered += (covered.empty() ? "" : ", ") + kueue.resources[c];
  if (list.value().size() != group.covered.size()) {
    ctx->Fail(list.pointer(), "must list the group's coveredResources in order: " + covered);
    return out;
  }
  for (size_t i = 0; i < group.covered.size() && ctx->ok(); ++i) {
    const JsonRef entry = list.Element(i);
    const std::string& resource = kueue.resources[group.covered[i]];
    ObjectReader names(ctx, entry, {"name", "nominalQuota", "borrowingLimit", "lendingLimit"});
    if (ctx->ok() && names.NonEmptyString("name") != resource && ctx->ok()) {
      ctx->Fail(names.Field("name").pointer(),
                "must list the group's coveredResources in order: " + covered);
    }
    if (ctx->ok()) out.quotas.push_back(LoadQuota(ctx, entry, resource, cohort));
    if (ctx->ok()) CheckOffered(ctx, entry, resource, kueue.flavors[out.flavor], scenario);
  }
  return out;
}

}  // namespace

namespace {

int32_t InternResource(KueueSpec* kueue, const std::string& name) {
  auto& names = kueue->resources;
  const auto it = std::find(names.begin(), names.end(), name);
  if (it != names.end()) return static_cast<int32_t>(it - names.begin());
  names.push_back(name);
  return static_cast<int32_t>(names.size() - 1);
}

// `coveredResources`: cpu, memory or extended resources, each in one group of the queue.
void LoadCovered(LoadContext* ctx, const JsonRef& ref, const ClusterQueueSpec& cq, KueueSpec* kueue,
                 ResourceGroup* group) {
  const std::vector<std::string> names = ReadStringArray(ctx, ref);
  if (ctx->ok() && names.empty()) ctx->Fail(ref.pointer(), "must not be empty");
  for (size_t i = 0; i < names.size() && ctx->ok(); ++i) {
    const std::string& name = names[i];
    const std::string pointer = ref.pointer() + "/" + std::to_string(i);
    if (name != "cpu" && name != "memory") {
      if (const std::string problem = ExtendedResourceProblem(name); !problem.empty()) {
        ctx->Fail(pointer, problem);
        return;
      }
    }
    const int32_t r = InternResource(kueue, name);
    bool seen = std::find(group->covered.begin(), group->covered.end(), r) != group->covered.end();
    for (const ResourceGroup& other : cq.groups) {
      seen =
          seen || std::find(other.covered.begin(), other.covered.end(), r) != other.covered.end();
    }
    if (seen) ctx->Fail(pointer, "'" + name + "' is covered twice in this ClusterQueue");
    group->covered.push_back(r);
  }
}

void LoadGroups(LoadContext* ctx, const JsonRef& ref, ClusterQueueSpec* cq, KueueSpec* kueue,
                const Scenario& scenario) {
  if (!ExpectArray(ctx, ref)) return;
  std::vector<int32_t> flavors_seen;
  for (size_t g = 0; g < ref.value().size() && ctx->ok(); ++g) {
    ObjectReader r(ctx, ref.Element(g), {"coveredResources", "flavors"});
    ResourceGroup group;
    if (!r.Require("coveredResources") || !r.Require("flavors")) return;
    LoadCovered(ctx, r.Field("coveredResources"), *cq, kueue, &group);
    const JsonRef flavors = r.Field("flavors");
    if (!ctx->ok() || !ExpectArray(ctx, flavors)) return;
    if (flavors.value().empty()) ctx->Fail(flavors.pointer(), "must not be empty");
    for (size_t f = 0; f < flavors.value().size() && ctx->ok(); ++f) {
      group.flavors.push_back(
          LoadFlavorQuotas(ctx, flavors.Element(f), group, *kueue, !cq->cohort.empty(), scenario));
      const int32_t flavor = group.flavors.back().flavor;
      if (ctx->ok() && std::count(flavors_seen.begin(), flavors_seen.end(), flavor) > 0) {
        ctx->Fail(flavors.Element(f).PointerTo("name"),
                  "flavor '" + kueue->flavors[flavor].name + "' is in this ClusterQueue twice");
      }
      flavors_seen.push_back(flavor);
    }
    cq->groups.push_back(std::move(group));
  }
}

void LoadClusterQueue(LoadContext* ctx, const std::string& name, const JsonRef& ref,
                      Scenario* scenario, KueueSpec* kueue) {
  ObjectReader r(
      ctx, ref,
      {"cohort", "queueingStrategy", "namespaces", "resourceGroups", "preemption", "fairSharing"});
  ClusterQueueSpec cq;
  cq.name = name;
  cq.cohort = r.String("cohort");
  cq.strategy = ReadEnum(ctx, r, "queueingStrategy", {"BestEffortFIFO", "StrictFIFO"},
                         QueueingStrategy::kBestEffortFifo);
  if (r.Has("namespaces") && ctx->ok()) {
    const JsonRef list = r.Field("namespaces");
    if (ExpectArray(ctx, list)) {
      for (size_t i = 0; i < list.value().size() && ctx->ok(); ++i) {
        cq.namespaces.push_back(ReadNamespace(ctx, list.Element(i), scenario));
      }
    }
  }
  if (r.Has("preemption") && ctx->ok()) {
    ObjectReader p(ctx, r.Field("preemption"), {"withinClusterQueue", "reclaimWithinCohort"});
    cq.within_cluster_queue = ReadEnum(ctx, p, "withinClusterQueue",
                                       {"Never", "LowerPriority", "LowerOrNewerEqualPriority"},
                                       WithinClusterQueue::kNever);
    cq.reclaim_within_cohort =
        ReadEnum(ctx, p, "reclaimWithinCohort", {"Never", "LowerPriority", "Any"},
                 ReclaimWithinCohort::kNever);
  }
  if (r.Has("fairSharing") && ctx->ok()) {
    ObjectReader f(ctx, r.Field("fairSharing"), {"weight"});
    cq.fair_sharing_weight = f.Number("weight", 1, 0);
  }
  if (r.Require("resourceGroups") && ctx->ok()) {
    LoadGroups(ctx, r.Field("resourceGroups"), &cq, kueue, *scenario);
  }
  kueue->cluster_queues.push_back(std::move(cq));
}

void LoadLocalQueue(LoadContext* ctx, const std::string& name, const JsonRef& ref,
                    Scenario* scenario, KueueSpec* kueue) {
  ObjectReader r(ctx, ref, {"namespace", "clusterQueue"});
  LocalQueueSpec lq{name, 0, 0};
  if (r.Has("namespace")) lq.namespace_index = ReadNamespace(ctx, r.Field("namespace"), scenario);
  const std::string cq_name = r.NonEmptyString("clusterQueue");
  if (!ctx->ok()) return;
  lq.cluster_queue = IndexOf(kueue->cluster_queues, cq_name);
  if (lq.cluster_queue < 0) {
    ctx->Fail(r.Field("clusterQueue").pointer(),
              UnknownNameMessage("ClusterQueue", cq_name, Names(kueue->cluster_queues)));
    return;
  }
  const std::vector<int32_t>& allowed = kueue->cluster_queues[lq.cluster_queue].namespaces;
  if (!allowed.empty() &&
      std::find(allowed.begin(), allowed.end(), lq.namespace_index) == allowed.end()) {
    ctx->Fail(r.Field("clusterQueue").pointer(),
              "ClusterQueue '" + cq_name + "' does not select namespace '" +
                  scenario->namespaces[lq.namespace_index] + "' (its namespaces)");
  }
  kueue->local_queues.push_back(std::move(lq));
}

// Each member of the named object at `ref`, loaded by `load`.
template <typename Load>
void ForEachNamed(LoadContext* ctx, const JsonRef& ref, std::string_view what, Load load) {
  if (!ExpectNamedObject(ctx, ref, what)) return;
  for (const auto& [name, value] : ref.value().items()) {
    load(name, ref.Member(name));
    if (!ctx->ok()) return;
  }
}

}  // namespace

void LoadKueue(LoadContext* ctx, const JsonRef& ref, Scenario* scenario) {
  ObjectReader r(ctx, ref, {"fairSharing", "resourceFlavors", "clusterQueues", "localQueues"});
  if (!r.valid()) return;
  KueueSpec kueue;
  if (r.Has("fairSharing")) {
    ObjectReader f(ctx, r.Field("fairSharing"), {"enable"});
    kueue.fair_sharing = f.Bool("enable", false);
  }
  if (r.Require("resourceFlavors") && ctx->ok())
    LoadFlavors(ctx, r.Field("resourceFlavors"), &kueue);
  if (r.Require("clusterQueues") && ctx->ok()) {
    ForEachNamed(ctx, r.Field("clusterQueues"), "ClusterQueue",
                 [&](const std::string& name, const JsonRef& cq) {
                   LoadClusterQueue(ctx, name, cq, scenario, &kueue);
                 });
  }
  if (r.Require("localQueues") && ctx->ok()) {
    ForEachNamed(ctx, r.Field("localQueues"), "LocalQueue",
                 [&](const std::string& name, const JsonRef& lq) {
                   LoadLocalQueue(ctx, name, lq, scenario, &kueue);
                 });
  }
  if (ctx->ok()) scenario->kueue = std::move(kueue);
}

}  // namespace migsim::io
