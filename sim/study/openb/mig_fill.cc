#include "sim/study/openb/mig_fill.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <unordered_map>

#include "sim/cluster/mig_config.h"
#include "sim/policy/gpu_fragmentation.h"

namespace migsim {
namespace {

constexpr int kMaxPodsPerNode = 1001;
constexpr int kMaxK = 8;  // cache slots for 1..8 GPUs per pod

struct Choice {
  int64_t score = 0;
  int gpu = -1;
  int start = 0;
  bool create = false;
};

struct MigNodeState {
  int64_t cpu_left = 0, memory_left = 0, rank = 0;
  int pods = 0;
  uint32_t version = 1;
  std::vector<MigGpu> gpus;
  std::vector<double> frag;  // per GPU
};

// A GPU's GIs as one number, for memoising per GPU state: 8 bits per GI (profile, start,
// occupied), GIs ordered by start.
uint64_t StateKey(const MigGpu& gpu, int profile) {
  std::vector<uint16_t> parts;
  for (const MigGi& gi : gpu.gis) {
    parts.push_back(static_cast<uint16_t>((gi.placement.start << 5) | (gi.placement.profile << 1) |
                                          (gi.occupied ? 1 : 0)));
  }
  std::sort(parts.begin(), parts.end());
  uint64_t key = static_cast<uint64_t>(profile) + 1;
  for (uint16_t p : parts) key = key * 1031 + p;
  return key;
}

class MigFill {
 public:
  MigFill(const std::vector<FillNode>& nodes, const std::vector<FillPod>& pods,
          const MigFillConfig& config)
      : nodes_(nodes), pods_(pods), config_(config), rng_(config.seed) {}
  Status Init(const MigScorerFactory& make_policy);
  MigFillResult Run();

 private:
  Choice BestOnGpu(const MigGpu& gpu, int index, int profile);
  Choice BestOnNode(MigNodeState& node, int profile, int k, std::vector<Choice>* picks);
  bool Fits(const MigNodeState& n, const FillPod& pod) const {
    return n.pods + 1 <= kMaxPodsPerNode && n.cpu_left >= pod.shape.cpu_milli &&
           n.memory_left >= pod.memory_mib;
  }
  int Choose(const FillPod& pod, int profile, int k);
  void Place(MigNodeState& node, const FillPod& pod, int profile, int k);

  const std::vector<FillNode>& nodes_;
  const std::vector<FillPod>& pods_;
  MigFillConfig config_;
  Rng rng_;
  const GpuModel* model_ = nullptr;
  std::vector<TypicalPod> typical_;
  MigPolicyContext context_;
  std::unique_ptr<MigScorer> policy_;
  MigGpu fresh_gpu_;  // a GPU as the layout (or dynamic partitioning) starts it
  FillPlan plan_;
  std::vector<MigNodeState> state_;
  std::unordered_map<uint64_t, Choice> gpu_memo_;  // (GPU state, profile) -> best
  // Node cache: per node, per (profile, k): the best choice while the version matches.
  std::vector<Choice> node_choice_;
  std::vector<uint32_t> node_version_;
  std::vector<Choice> picks_;
  int64_t used_slices_ = 0, placed_milli_ = 0;
  double frag_total_ = 0;
};

Status MigFill::Init(const MigScorerFactory& make_policy) {
  model_ = FindGpuModel("A100-SXM4-40GB");
  const bool dynamic = config_.layout.empty();
  if (!dynamic) {
    Result<GpuMigSetting> setting = ResolveMigConfig(*model_, config_.layout);
    if (!setting.ok()) return setting.status();
    if (!setting.value().mig_enabled || setting.value().layout.empty()) {
      return Status::InvalidArgument("layout '" + config_.layout + "' has no MIG devices");
    }
    for (const MigPlacement& p : setting.value().layout) fresh_gpu_.gis.push_back({p, false});
  }
  plan_ = PlanSubmissions(pods_, config_.tune_ratio * 1000.0 * config_.capacity_gpus, rng_);
  std::vector<PodShape> shapes;
  for (const FillPod* p : plan_.pool) shapes.push_back(p->shape);
  typical_ = TypicalPods(shapes);
  context_.model = model_;
  context_.dynamic = dynamic;
  context_.layouts = EnumerateMaximalLayouts(*model_, true);
  context_.typical = TypicalProfiles(*model_, typical_);
  policy_ = make_policy(config_.policy, context_);
  if (!policy_) return Status::InvalidArgument("unknown MIG policy '" + config_.policy + "'");
  return Status::Ok();
}

Choice MigFill::BestOnGpu(const MigGpu& gpu, int index, int profile) {
  const uint64_t key = StateKey(gpu, profile);
  auto memo = gpu_memo_.find(key);
  if (memo == gpu_memo_.end()) {
    std::vector<MigCandidate> candidates;
    MigCandidates(*model_, gpu, 0, profile, context_.dynamic, candidates);
    Choice best;
    for (const MigCandidate& c : candidates) {  // in start order: ties keep the lowest
      const int64_t score = policy_->Score(gpu, WithGi(gpu, c, profile));
      if (best.gpu < 0 || score > best.score) best = {score, 0, c.start, c.create};
    }
    memo = gpu_memo_.emplace(key, best).first;
  }
  Choice c = memo->second;
  if (c.gpu >= 0) c.gpu = index;
  return c;
}

// The node's best placement for k GIs of `profile` on k distinct GPUs (score: their sum),
// and the GPUs chosen (picks), or gpu = -1 when it has no room.
Choice MigFill::BestOnNode(MigNodeState& node, int profile, int k, std::vector<Choice>* picks) {
  picks->clear();
  for (size_t g = 0; g < node.gpus.size(); ++g) {
    Choice c = BestOnGpu(node.gpus[g], static_cast<int>(g), profile);
    if (c.gpu >= 0) picks->push_back(c);
  }
  if (static_cast<int>(picks->size()) < k) return {};
  std::stable_sort(picks->begin(), picks->end(),
                   [](const Choice& a, const Choice& b) { return a.score > b.score; });
  picks->resize(static_cast<size_t>(k));
  Choice total = picks->front();
  total.score = 0;
  for (const Choice& c : *picks) total.score += c.score;
  return total;
}

int MigFill::Choose(const FillPod& pod, int profile, int k) {
  int best = -1;
  int64_t best_score = 0;
  const size_t slots = static_cast<size_t>(model_->profiles.size() * (kMaxK + 1));
  for (size_t i = 0; i < state_.size(); ++i) {
    MigNodeState& n = state_[i];
    if (!Fits(n, pod)) continue;
    int64_t score = 0;
    if (profile >= 0) {
      const size_t slot =
          i * slots + static_cast<size_t>(profile * (kMaxK + 1) + std::min(k, kMaxK));
      if (node_version_[slot] != n.version) {
        node_choice_[slot] = BestOnNode(n, profile, k, &picks_);
        node_version_[slot] = n.version;
      }
      if (node_choice_[slot].gpu < 0) continue;
      score = node_choice_[slot].score;
    }
    if (best < 0 || score > best_score || (score == best_score && n.rank < state_[best].rank)) {
      best = static_cast<int>(i);
      best_score = score;
    }
  }
  return best;
}

void MigFill::Place(MigNodeState& node, const FillPod& pod, int profile, int k) {
  node.cpu_left -= pod.shape.cpu_milli;
  node.memory_left -= pod.memory_mib;
  ++node.pods;
  ++node.version;
  placed_milli_ += int64_t{pod.shape.gpu_milli} * pod.shape.num_gpu;
  if (profile < 0) return;
  BestOnNode(node, profile, k, &picks_);
  for (const Choice& c : picks_) {
    MigGpu& gpu = node.gpus[static_cast<size_t>(c.gpu)];
    gpu = WithGi(gpu, MigCandidate{c.gpu, c.start, c.create}, profile);
    const double frag = MigFragmentation(*model_, gpu, context_.dynamic, context_.typical);
    frag_total_ += frag - node.frag[static_cast<size_t>(c.gpu)];
    node.frag[static_cast<size_t>(c.gpu)] = frag;
    used_slices_ += model_->profiles[static_cast<size_t>(profile)].compute_slices;
  }
}

MigFillResult MigFill::Run() {
  MigFillResult result;
  result.capacity_gpus = config_.capacity_gpus;
  const std::vector<int64_t> ranks = RandomRanks(nodes_.size(), rng_);
  const double fresh_frag =
      MigFragmentation(*model_, fresh_gpu_, context_.dynamic, context_.typical);
  for (size_t i = 0; i < nodes_.size(); ++i) {
    MigNodeState s;
    s.cpu_left = nodes_[i].cpu_milli;
    s.memory_left = nodes_[i].memory_mib;
    s.rank = ranks[i];
    s.gpus.assign(static_cast<size_t>(nodes_[i].gpus), fresh_gpu_);
    s.frag.assign(s.gpus.size(), fresh_frag);
    frag_total_ += fresh_frag * static_cast<double>(s.gpus.size());
    result.gpus += nodes_[i].gpus;
    state_.push_back(std::move(s));
  }
  const size_t slots = state_.size() * model_->profiles.size() * (kMaxK + 1);
  node_choice_.assign(slots, Choice{});
  node_version_.assign(slots, 0);
  int64_t arrived = 0;
  for (const FillPod* pod : plan_.order) {
    arrived += int64_t{pod->shape.gpu_milli} * pod->shape.num_gpu;
    const int profile = ProfileForShare(*model_, pod->shape.gpu_milli).value_or(-1);
    const int k = profile < 0 ? 0 : std::max(pod->shape.num_gpu, 1);
    const int node = Choose(*pod, profile, k);
    if (node < 0) {
      ++result.pods_failed;
    } else {
      Place(state_[static_cast<size_t>(node)], *pod, profile, k);
    }
    result.events.push_back({arrived, placed_milli_, used_slices_, frag_total_});
  }
  result.pods_submitted = static_cast<int64_t>(plan_.order.size());
  return result;
}

}  // namespace

Result<MigFillResult> RunMigFill(const std::vector<FillNode>& nodes,
                                 const std::vector<FillPod>& pods, const MigFillConfig& config,
                                 const MigScorerFactory& make_policy) {
  MigFill fill(nodes, pods, config);
  if (Status s = fill.Init(make_policy); !s.ok()) return s;
  return fill.Run();
}

std::vector<FillNode> P4dCluster(int64_t gpus) {
  std::vector<FillNode> nodes;
  const int64_t count = (gpus + 7) / 8;
  for (int64_t i = 0; i < count; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "p4d-%04lld", static_cast<long long>(i));
    // p4d.24xlarge: 96 vCPU, 1152 GiB, 8 x A100-SXM4-40GB (domain.md §5).
    nodes.push_back({name, 96000, 1152 * 1024, 8, "A100-SXM4-40GB"});
  }
  return nodes;
}

}  // namespace migsim
