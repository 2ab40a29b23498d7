#include "sim/study/openb/fill_cluster_view.h"

#include <algorithm>
#include <map>

#include "sim/io/hardware_catalog.h"
#include "sim/policy/gpu_share.h"

namespace migsim {
namespace {

// What scenarios/openb/default-replay.json names: the share resource and model label of a
// Trace workload and an openb pool (sim/io/trace_json.cc, openb_pool_json.cc), the units
// of device_plugin.fractional's default.
constexpr char kShareResource[] = "alibabacloud.com/gpu-milli";
constexpr char kModelLabel[] = "alibabacloud.com/gpu-card-model";
constexpr int kMaxPodsPerNode = 1001;  // the openb node YAML's pod capacity

// The catalog GPU an openb model stands as: T4 and the V100s as themselves (the openb
// pool's defaults), every other model as an A10G, as default-replay.json maps G2, G3,
// P100 and A10. Only the GPU count matters to the fill: its pods ask for no GPU memory.
const GpuModel* CatalogModel(const std::string& openb_model) {
  static const std::map<std::string, std::string> known = {
      {"T4", "T4"}, {"V100M16", "V100-SXM2-16GB"}, {"V100M32", "V100-SXM2-32GB"}};
  const auto it = known.find(openb_model);
  return BuiltinCatalog().FindGpuModel(it == known.end() ? "A10G" : it->second).get();
}

NodeSpec SpecOf(const FillNode& n) {
  NodeType type{.name = "openb",
                .vcpu = static_cast<int>(n.cpu_milli / 1000),
                .memory_gib = static_cast<double>(n.memory_mib) / 1024};
  NodeSpec spec;
  spec.name = n.name;
  if (n.gpus > 0) {
    type.name = "openb-" + n.model;
    type.gpu_count = n.gpus;
    type.gpu = CatalogModel(n.model);
    spec.extra_labels = {{kModelLabel, n.model}};
    spec.gpus.assign(static_cast<size_t>(n.gpus), GpuMigSetting{});
    spec.mig_config = type.gpu->mig_capable() ? "all-disabled" : "";
    spec.plugin = {.strategy = type.gpu->mig_capable() ? MigStrategy::kMixed : MigStrategy::kNone,
                   .sharing = SharingMode::kFractional,
                   .shared = {{.name = kShareResource, .replicas = kMilliPerGpu}}};
  }
  spec.type = std::make_shared<const NodeType>(std::move(type));
  return spec;
}

// "V100M32|V100M16" -> {"V100M16", "V100M32"}: sorted and unique, as LabelIn wants.
std::vector<std::string> SortedModels(const std::string& gpu_type) {
  std::vector<std::string> models = GpuTypeModels(gpu_type);
  std::sort(models.begin(), models.end());
  models.erase(std::unique(models.begin(), models.end()), models.end());
  return models;
}

}  // namespace

Result<std::unique_ptr<FillClusterView>> FillClusterView::Make(std::vector<const FillNode*> by_rank,
                                                               const std::vector<FillPod>& pods) {
  std::unique_ptr<FillClusterView> v(new FillClusterView(pods));
  const ResourceId share = v->resources_.Intern(kShareResource);
  for (const FillPod& p : pods) {
    PodRequests& req = v->requests_.emplace_back();
    req.cpu_milli = p.shape.cpu_milli;
    req.memory_mib = p.memory_mib;
    NodeAffinity& affinity = v->affinity_.emplace_back();
    if (p.shape.num_gpu > 0 && p.shape.gpu_milli > 0) {
      req.extended.push_back({share, p.shape.num_gpu * p.shape.gpu_milli});
      if (!p.shape.gpu_type.empty())
        affinity.push_back({kModelLabel, SortedModels(p.shape.gpu_type)});
    }
  }
  v->specs_.reserve(by_rank.size());
  v->runtimes_.reserve(by_rank.size());
  v->info_.resize(by_rank.size());
  for (const FillNode* n : by_rank) {
    if (n->cpu_milli % 1000 != 0) {
      return Status::InvalidArgument("node " + n->name + ": cpu_milli " +
                                     std::to_string(n->cpu_milli) +
                                     " is not whole cores, which a policy's view needs");
    }
    v->specs_.push_back(SpecOf(*n));
  }
  for (size_t i = 0; i < by_rank.size(); ++i) {
    v->runtimes_.emplace_back(v->specs_[i], NodeId(static_cast<NodeId::Rep>(i)), v->resources_,
                              v->info_[i]);
  }
  // A resource interned after a node was built (none today) would be missing from its
  // books: every node's vectors cover the whole table, as the engine keeps them.
  for (NodeInfo& info : v->info_) {
    info.allocatable.resize(v->resources_.size(), 0);
    info.requested.resize(v->resources_.size(), 0);
  }
  return v;
}

bool FillClusterView::Valid(const Placement& placement, const PodView& pod,
                            const ClusterView& view) const {
  const NodeId node = placement.node;
  if (!node.valid() || node.value() >= info_.size()) return false;
  const NodeInfo& info = info_[node.value()];
  if (!view.Fits(pod, info) || info.pods.size() + 1 > kMaxPodsPerNode) return false;
  return placement.devices.empty() ||
         runtimes_[node.value()].ValidChoices(*pod.requests, placement.devices);
}

FillClusterView::Outcome FillClusterView::Place(Policy& policy, const FillPod& pod,
                                                uint32_t submission) {
  const size_t index = static_cast<size_t>(&pod - pods_->data());
  PodView view{.id = PodId(submission), .requests = &requests_[index]};
  if (!affinity_[index].empty()) view.node_affinity = &affinity_[index];
  const ClusterView cluster(info_, resources_, SimTime::Zero());
  const std::optional<Placement> placement = policy.Place(cluster, view);
  Outcome out;
  if (!placement) return out;
  if (!Valid(*placement, view, cluster)) {
    out.refused = true;
    return out;
  }
  const size_t rank = placement->node.value();
  NodeRuntime& runtime = runtimes_[rank];
  NodeInfo& info = info_[rank];
  held_.clear();
  runtime.Allocate(*view.requests, held_, info, placement->devices);
  info.pods.push_back({view.id, view.requests});
  out.rank = rank;
  for (const NodeRuntime::Held& h : held_)
    out.gpus.push_back(runtime.devices()[h.device].plugin.gpu);
  return out;
}

}  // namespace migsim
