#include "sim/study/openb/fill_experiment.h"

#include <algorithm>
#include <map>
#include <memory>
#include <span>
#include <utility>

#include "sim/core/rng.h"
#include "sim/policy/gpu_fragmentation.h"
#include "sim/study/openb/fill_candidates.h"
#include "sim/study/openb/fill_cluster_view.h"

namespace migsim {
namespace {

constexpr int kMaxPodsPerNode = 1001;  // the openb node YAML's pod capacity

// A node as the scorers see it.
struct NodeState {
  GpuShareNode gpu;
  double frag = 0;  // NodeFragmentation(gpu, typical pods)
};

// What the filter and the choice read of every candidate node, packed apart from the
// scorers' view so that a scan over the nodes stays in cache.
struct NodeLoad {
  int64_t cpu_left_milli = 0;  // = NodeState::gpu.cpu_left_milli
  int64_t memory_left_mib = 0;
  int32_t pods = 0;
  int32_t max_free_milli = 0;  // the most free milli of one GPU (0 without GPUs)
  uint32_t version = 1;        // bumped whenever a pod lands: invalidates cached scores
  int32_t rank = 0;            // tie-break: the lowest rank wins equal scores
};

void SortByName(std::vector<const FillPod*>& pods) {
  std::stable_sort(pods.begin(), pods.end(),
                   [](const FillPod* a, const FillPod* b) { return a->name < b->name; });
}

void Shuffle(std::vector<const FillPod*>& v, Rng& rng) {
  for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.Below(i)]);
}

// The originals sorted by name then shuffled, followed by clones drawn with replacement
// until the GPU request would pass tune_ratio x capacity (§2.2 step 6, including the Go
// quirk: the stop test adds the clone's per-GPU milli, not its total); a trace already
// above the target loses random pods instead.
std::vector<const FillPod*> TopUp(const std::vector<const FillPod*>& pool, double target,
                                  Rng& rng) {
  std::vector<const FillPod*> order = pool;
  Shuffle(order, rng);
  int64_t total = 0;
  for (const FillPod* p : pool) total += int64_t{p->shape.gpu_milli} * p->shape.num_gpu;
  const bool any_gpu_pod = std::any_of(pool.begin(), pool.end(),
                                       [](const FillPod* p) { return p->shape.gpu_milli > 0; });
  if (static_cast<double>(total) <= target) {
    // Only a clone that would overflow stops the top-up (CPU-only clones never do, so a
    // trace without GPU pods is left as it is rather than grown forever).
    while (any_gpu_pod) {
      const FillPod* clone = pool[rng.Below(pool.size())];
      if (static_cast<double>(total + clone->shape.gpu_milli) > target) break;
      total += int64_t{clone->shape.gpu_milli} * clone->shape.num_gpu;
      order.push_back(clone);
    }
    return order;
  }
  // Above the target (tuneDownPods): remove uniformly random pods until at or below it.
  while (static_cast<double>(total) > target && !order.empty()) {
    const size_t victim = rng.Below(order.size());
    total -= int64_t{order[victim]->shape.gpu_milli} * order[victim]->shape.num_gpu;
    order.erase(order.begin() + static_cast<std::ptrdiff_t>(victim));
  }
  return order;
}

int32_t MaxFree(const GpuShareNode& node) {
  int32_t most = 0;
  for (int32_t free : node.gpu_free_milli) most = std::max(most, free);
  return most;
}

class Fill {
 public:
  Fill(const std::vector<FillNode>& nodes, const FillTrace& trace, const FillConfig& config);
  // The exact path: a study scorer, the fill's own filter, ranks and score cache.
  Status Init(const GpuShareScorerFactory& make_policy);
  // Any Policy, through the engine-shaped view.
  Status Init(Policy& policy);
  Result<FillResult> Run();

 private:
  // The filter (openb-protocol.md §3): Admits is the part that never changes, Fits the
  // part that shrinking resources decide.
  static bool Admits(const NodeState& n, const FillPod& pod);
  bool Fits(size_t node, const FillPod& pod) const;
  int Choose(const FillPod& pod, int shape_id);
  // The node (index into state_) the pod goes to and the GPUs it takes there, or -1.
  int Decide(const FillPod& pod, uint32_t submission, std::vector<int>& gpus, FillResult& result);
  void Place(size_t node, const FillPod& pod, const std::vector<int>& gpus);
  FillFinalState FinalState() const;

  const std::vector<FillNode>& nodes_;
  const FillTrace& trace_;
  std::span<const TypicalPod> typical_;  // trace_'s
  FillConfig config_;
  Rng rng_;
  GpuShareContext context_;
  std::unique_ptr<GpuShareScorer> policy_;  // the exact path
  Policy* any_policy_ = nullptr;            // or any policy, through view_
  std::unique_ptr<FillClusterView> view_;
  std::vector<size_t> by_rank_;           // by rank: the index into state_
  std::vector<const FillNode*> by_name_;  // the nodes sorted by name; state_[i] is by_name_[i]
  std::vector<NodeState> state_;
  std::vector<NodeLoad> load_;  // load_[i] goes with state_[i]
  std::unique_ptr<FillCandidates> candidates_;
  // Score cache: per pod shape and node (shape-major: a filter reads one shape's row),
  // valid while the node's version matches.
  std::vector<int64_t> cached_score_;
  std::vector<uint32_t> cached_version_;
  std::vector<size_t> feasible_;
  double frag_total_ = 0;
  int64_t used_milli_ = 0, idle_milli_ = 0;
};

Fill::Fill(const std::vector<FillNode>& nodes, const FillTrace& trace, const FillConfig& config)
    : nodes_(nodes), trace_(trace), typical_(trace.typical()), config_(config), rng_(config.seed) {}

Status Fill::Init(Policy& policy) {
  any_policy_ = &policy;
  return Init(GpuShareScorerFactory());
}

Status Fill::Init(const GpuShareScorerFactory& make_policy) {
  if (nodes_.empty()) return Status::InvalidArgument("the cluster has no nodes");
  candidates_ = std::make_unique<FillCandidates>(trace_.classes());
  context_ = GpuShareContext{&rng_, typical_};
  if (any_policy_ != nullptr) return Status::Ok();
  policy_ = make_policy(config_.policy, context_);
  if (!policy_) return Status::InvalidArgument("unknown policy '" + config_.policy + "'");
  return Status::Ok();
}

bool Fill::Admits(const NodeState& n, const FillPod& pod) {
  if (pod.shape.gpu_milli <= 0 || pod.shape.num_gpu <= 0) return true;
  return !n.gpu.gpu_free_milli.empty() && ModelAllowed(pod.shape.gpu_type, n.gpu.model);
}

bool Fill::Fits(size_t node, const FillPod& pod) const {
  const NodeLoad& n = load_[node];
  if (n.pods + 1 > kMaxPodsPerNode || n.cpu_left_milli < pod.shape.cpu_milli ||
      n.memory_left_mib < pod.memory_mib) {
    return false;
  }
  // One GPU: GpusFit's answer without the walk over the GPUs.
  if (pod.shape.num_gpu == 1 && pod.shape.gpu_milli > 0) {
    return n.max_free_milli >= pod.shape.gpu_milli;
  }
  return GpusFit(state_[node].gpu, pod.shape);
}

// The node the pod goes to, or -1: the filter over every node (those its class may still
// use, fill_candidates.h), then the policy's pick or its highest score with ties to the
// lowest rank (one feasible node is taken unscored).
int Fill::Choose(const FillPod& pod, int shape_id) {
  feasible_.clear();
  candidates_->Collect(
      trace_.ClassOf(pod), state_.size(), [&](size_t i) { return Admits(state_[i], pod); },
      [&](size_t i) { return Fits(i, pod); }, feasible_);
  if (feasible_.empty()) return -1;
  if (feasible_.size() == 1) return static_cast<int>(feasible_[0]);
  if (std::optional<size_t> pick = policy_->PickNode(feasible_.size())) {
    return static_cast<int>(feasible_[*pick]);
  }
  const size_t row = static_cast<size_t>(shape_id) * state_.size();
  int best = -1;
  int64_t best_score = 0;
  for (size_t i : feasible_) {
    const NodeLoad& n = load_[i];
    const size_t slot = row + i;
    if (cached_version_[slot] != n.version) {
      cached_score_[slot] = policy_->ScoreKnowingFrag(state_[i].gpu, pod.shape, state_[i].frag);
      cached_version_[slot] = n.version;
    }
    const int64_t score = cached_score_[slot];
    if (best < 0 || score > best_score || (score == best_score && n.rank < load_[best].rank)) {
      best = static_cast<int>(i);
      best_score = score;
    }
  }
  return best;
}

int Fill::Decide(const FillPod& pod, uint32_t submission, std::vector<int>& gpus,
                 FillResult& result) {
  if (view_) {
    FillClusterView::Outcome out = view_->Place(*any_policy_, pod, submission);
    result.answers_refused += out.refused ? 1 : 0;
    if (!out.rank) return -1;
    gpus = std::move(out.gpus);
    return static_cast<int>(by_rank_[*out.rank]);
  }
  const int node = Choose(pod, static_cast<int>(trace_.ShapeOf(pod)));
  if (node >= 0) gpus = policy_->SelectGpus(state_[static_cast<size_t>(node)].gpu, pod.shape);
  return node;
}

void Fill::Place(size_t node, const FillPod& pod, const std::vector<int>& gpus) {
  NodeState& n = state_[node];
  n.gpu = WithPod(std::move(n.gpu), pod.shape, gpus);
  n.gpu.pod_tags |= AffinityTag(pod.shape);
  NodeLoad& load = load_[node];
  load.cpu_left_milli = n.gpu.cpu_left_milli;
  load.memory_left_mib -= pod.memory_mib;
  ++load.pods;
  ++load.version;
  load.max_free_milli = MaxFree(n.gpu);
  const int64_t milli = static_cast<int64_t>(gpus.size()) * pod.shape.gpu_milli;
  used_milli_ += milli;
  idle_milli_ -= milli;
  const double frag = NodeFragmentation(n.gpu, typical_);
  frag_total_ += frag - n.frag;
  n.frag = frag;
}

FillFinalState Fill::FinalState() const {
  FillFinalState f;
  for (size_t i = 0; i < state_.size(); ++i) {
    const NodeState& n = state_[i];
    const FillNode& spec = *by_name_[i];
    f.cpu_milli_total += spec.cpu_milli;
    f.cpu_milli_used += spec.cpu_milli - n.gpu.cpu_left_milli;
    f.memory_mib_total += spec.memory_mib;
    f.memory_mib_used += spec.memory_mib - load_[i].memory_left_mib;
    for (int32_t free : n.gpu.gpu_free_milli) f.gpus_allocated += free < kMilliPerGpu ? 1 : 0;
    const FragBreakdown b = NodeFragmentationBreakdown(n.gpu, typical_);
    f.idle.q1 += b.q1, f.idle.q2 += b.q2, f.idle.q3 += b.q3, f.idle.q4 += b.q4;
    f.idle.xl += b.xl, f.idle.xr += b.xr, f.idle.na += b.na;
  }
  f.milli_gpu_used = used_milli_;
  return f;
}

Result<FillResult> Fill::Run() {
  FillResult result;
  // The RNG's uses, in the protocol's order: shuffle and top-up, then node ranks.
  int64_t capacity = 0;
  for (const FillNode& n : nodes_) capacity += int64_t{n.gpus} * kMilliPerGpu;
  result.total_gpus = capacity / kMilliPerGpu;
  const std::vector<const FillPod*> order =
      TopUp(trace_.pool(), config_.tune_ratio * static_cast<double>(capacity), rng_);
  for (const FillNode& n : nodes_) by_name_.push_back(&n);
  std::stable_sort(by_name_.begin(), by_name_.end(),
                   [](const FillNode* a, const FillNode* b) { return a->name < b->name; });
  const std::vector<int64_t> ranks = RandomRanks(by_name_.size(), rng_);
  for (size_t i = 0; i < by_name_.size(); ++i) {
    NodeState s;
    s.gpu.cpu_left_milli = by_name_[i]->cpu_milli;
    s.gpu.gpu_free_milli.assign(static_cast<size_t>(by_name_[i]->gpus), kMilliPerGpu);
    s.gpu.model = by_name_[i]->model;
    s.frag = NodeFragmentation(s.gpu, typical_);
    load_.push_back({.cpu_left_milli = s.gpu.cpu_left_milli,
                     .memory_left_mib = by_name_[i]->memory_mib,
                     .max_free_milli = MaxFree(s.gpu),
                     .rank = static_cast<int32_t>(ranks[i])});
    frag_total_ += s.frag;
    idle_milli_ += s.gpu.idle_milli();
    state_.push_back(std::move(s));
  }
  if (any_policy_ != nullptr) {
    std::vector<const FillNode*> nodes(by_name_.size());
    by_rank_.resize(by_name_.size());
    for (size_t i = 0; i < by_name_.size(); ++i) {
      nodes[static_cast<size_t>(ranks[i])] = by_name_[i];
      by_rank_[static_cast<size_t>(ranks[i])] = i;
    }
    Result<std::unique_ptr<FillClusterView>> view = FillClusterView::Make(nodes, trace_.pods());
    if (!view.ok()) return view.status();
    view_ = std::move(view).value();
  }
  cached_score_.assign(state_.size() * trace_.shapes(), 0);
  cached_version_.assign(state_.size() * trace_.shapes(), 0);
  std::map<PodShape, int64_t> failed;
  int64_t arrived = 0;
  std::vector<int> gpus;
  result.events.reserve(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    const FillPod* pod = order[i];
    arrived += int64_t{pod->shape.gpu_milli} * pod->shape.num_gpu;
    const int node = Decide(*pod, static_cast<uint32_t>(i), gpus, result);
    if (node < 0) {
      ++failed[pod->shape];
      ++result.pods_failed;
    } else {
      Place(static_cast<size_t>(node), *pod, gpus);
    }
    result.events.push_back({arrived, used_milli_, frag_total_, static_cast<double>(idle_milli_)});
  }
  result.pods_submitted = static_cast<int64_t>(order.size());
  for (const auto& [shape, count] : failed) result.failed.push_back({shape, count});
  std::stable_sort(result.failed.begin(), result.failed.end(),
                   [](const FailedShape& a, const FailedShape& b) { return a.count > b.count; });
  result.final_state = FinalState();
  return result;
}

}  // namespace

FillPlan PlanSubmissions(const std::vector<FillPod>& pods, double target_milli, Rng& rng) {
  FillPlan plan;
  for (const FillPod& p : pods) plan.pool.push_back(&p);
  SortByName(plan.pool);
  plan.order = TopUp(plan.pool, target_milli, rng);
  return plan;
}

std::vector<int64_t> RandomRanks(size_t n, Rng& rng) {
  std::vector<int64_t> ranks(n);
  for (size_t i = 0; i < n; ++i) ranks[i] = static_cast<int64_t>(i);
  for (size_t i = n; i > 1; --i) std::swap(ranks[i - 1], ranks[rng.Below(i)]);
  return ranks;
}

FillTrace::FillTrace(const std::vector<FillPod>& pods) : pods_(&pods) {
  for (const FillPod& p : pods) pool_.push_back(&p);
  SortByName(pool_);
  // Shape ids in pool order, class ids in trace order (any fixed numbering would do).
  std::map<PodShape, uint32_t> shape_ids;
  std::vector<PodShape> shapes;
  for (const FillPod* p : pool_) {
    shapes.push_back(p->shape);
    shape_ids.emplace(p->shape, static_cast<uint32_t>(shape_ids.size()));
  }
  typical_ = TypicalPods(shapes);
  std::map<std::pair<PodShape, int64_t>, uint32_t> classes;
  for (const FillPod& p : pods) {
    const uint32_t cls = classes.emplace(std::pair(p.shape, p.memory_mib),
                                         static_cast<uint32_t>(classes.size()))
                             .first->second;
    ids_.push_back({shape_ids.at(p.shape), cls});
  }
  shapes_ = shape_ids.size();
  classes_ = classes.size();
}

Result<FillResult> RunFill(const std::vector<FillNode>& nodes, const std::vector<FillPod>& pods,
                           const FillConfig& config, const GpuShareScorerFactory& make_policy) {
  return RunFill(nodes, FillTrace(pods), config, make_policy);
}

Result<FillResult> RunFill(const std::vector<FillNode>& nodes, const FillTrace& trace,
                           const FillConfig& config, const GpuShareScorerFactory& make_policy) {
  Fill fill(nodes, trace, config);
  if (Status s = fill.Init(make_policy); !s.ok()) return s;
  return fill.Run();
}

Result<FillResult> RunPolicyFill(const std::vector<FillNode>& nodes,
                                 const std::vector<FillPod>& pods, const FillConfig& config,
                                 Policy& policy) {
  return RunPolicyFill(nodes, FillTrace(pods), config, policy);
}

Result<FillResult> RunPolicyFill(const std::vector<FillNode>& nodes, const FillTrace& trace,
                                 const FillConfig& config, Policy& policy) {
  Fill fill(nodes, trace, config);
  if (Status s = fill.Init(policy); !s.ok()) return s;
  return fill.Run();
}

}  // namespace migsim
