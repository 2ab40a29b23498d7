// The openb fill experiment (docs: openb-protocol.md §2): submission order and top-up,
// per-pod events, failed pods and the placement loop, on tiny clusters built here, plus
// one run on the real default trace when the shared data is present.
#include "sim/study/openb/fill_experiment.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "policies/gpu_share_scorers.h"
#include "sim/io/openb_csv.h"
#include "sim/policy/gpu_share.h"
#include "sim/policy/gpu_share_scorer.h"
#include "sim/study/parallel_for.h"
#include "tests/support/openb_data.h"

namespace migsim {
namespace {

FillPod Pod(std::string name, int64_t cpu_milli, int32_t gpu_milli, int32_t num_gpu,
            std::string type = "", int64_t memory_mib = 1024) {
  return FillPod{std::move(name), memory_mib,
                 PodShape{cpu_milli, gpu_milli, num_gpu, std::move(type)}};
}

// Three nodes of 2 GPUs with different models: 6000 milli-GPU of capacity.
std::vector<FillNode> TinyCluster() {
  return {{"n0", 32000, 65536, 2, "T4"},
          {"n1", 16000, 32768, 2, "V100M16"},
          {"n2", 64000, 131072, 2, "P100"}};
}

// Twelve pods mixing CPU-only, sharing, whole-GPU and 2-GPU pods, one constrained to the
// V100 models: 6350 milli-GPU, below the 7800 target of TinyCluster at ratio 1.3.
std::vector<FillPod> TinyTrace() {
  return {Pod("p00", 4000, 0, 0),      Pod("p01", 2000, 0, 0),
          Pod("p02", 2000, 300, 1),    Pod("p03", 2000, 500, 1),
          Pod("p04", 3000, 700, 1),    Pod("p05", 1000, 250, 1),
          Pod("p06", 4000, 1000, 1),   Pod("p07", 4000, 1000, 1, "V100M16|V100M32"),
          Pod("p08", 8000, 1000, 2),   Pod("p09", 2000, 400, 1),
          Pod("p10", 1000, 0, 0),      Pod("p11", 1000, 200, 1)};
}

constexpr int64_t kTinyCapacity = 6000;

FillResult Run(const std::vector<FillNode>& nodes, const std::vector<FillPod>& pods,
               const std::string& policy, uint64_t seed, double tune_ratio = 1.3) {
  Result<FillResult> r = RunFill(nodes, pods, FillConfig{policy, seed, tune_ratio},
                                 &MakeGpuShareScorer);
  if (!r.ok()) FAIL(r.status().ToString());
  return std::move(r).value();
}

std::vector<int64_t> Arrived(const FillResult& r) {
  std::vector<int64_t> out;
  for (const FillEvent& e : r.events) out.push_back(e.arrived_milli);
  return out;
}

// The GPU request of each submitted pod, recovered from the events.
std::vector<int64_t> Requests(const FillResult& r) {
  std::vector<int64_t> out;
  int64_t previous = 0;
  for (const FillEvent& e : r.events) {
    out.push_back(e.arrived_milli - previous);
    previous = e.arrived_milli;
  }
  return out;
}

bool SameEvents(const FillResult& a, const FillResult& b) {
  if (a.events.size() != b.events.size()) return false;
  for (size_t i = 0; i < a.events.size(); ++i) {
    const FillEvent& x = a.events[i];
    const FillEvent& y = b.events[i];
    if (x.arrived_milli != y.arrived_milli || x.used_milli != y.used_milli ||
        x.frag_milli != y.frag_milli || x.idle_milli != y.idle_milli) {
      return false;
    }
  }
  return true;
}

// ---------------------------------------------------------------------------------------

TEST_CASE("a fill run is the same for the same seed and differs between seeds",
          "[openb][workloads]") {
  for (const std::string& policy : GpuShareScorerNames()) {
    INFO(policy);
    const FillResult a = Run(TinyCluster(), TinyTrace(), policy, 5);
    const FillResult b = Run(TinyCluster(), TinyTrace(), policy, 5);
    CHECK(SameEvents(a, b));
    CHECK(a.pods_submitted == b.pods_submitted);
    CHECK(a.pods_failed == b.pods_failed);
    REQUIRE(a.failed.size() == b.failed.size());
    for (size_t i = 0; i < a.failed.size(); ++i) {
      CHECK(a.failed[i].shape == b.failed[i].shape);
      CHECK(a.failed[i].count == b.failed[i].count);
    }
    // Another seed shuffles the pods and draws the clones differently.
    const FillResult c = Run(TinyCluster(), TinyTrace(), policy, 6);
    CHECK(Arrived(a) != Arrived(c));
  }
}

TEST_CASE("runs on one prepared trace, on several threads, equal runs that prepare it themselves",
          "[openb][workloads]") {
  const std::vector<FillPod> pods = TinyTrace();
  const FillTrace trace(pods);
  CHECK(trace.pool().size() == pods.size());
  CHECK(trace.ClassOf(pods[6]) != trace.ClassOf(pods[7]));  // same request, another model
  const std::vector<std::string> policies = GpuShareScorerNames();
  std::vector<FillResult> shared(policies.size() * 4);
  ParallelFor(shared.size(), 2, [&](size_t i) {
    Result<FillResult> r = RunFill(TinyCluster(), trace,
                                   FillConfig{policies[i % policies.size()], i / policies.size(), 1.3},
                                   &MakeGpuShareScorer);
    if (r.ok()) shared[i] = std::move(r).value();
  });
  for (size_t i = 0; i < shared.size(); ++i) {
    INFO(policies[i % policies.size()] << ", seed " << i / policies.size());
    const FillResult alone = Run(TinyCluster(), pods, policies[i % policies.size()], i / policies.size());
    CHECK(SameEvents(shared[i], alone));
    CHECK(shared[i].pods_failed == alone.pods_failed);
    CHECK(shared[i].final_state.milli_gpu_used == alone.final_state.milli_gpu_used);
  }
}

TEST_CASE("the pod order does not depend on the policy, only on the seed", "[openb][workloads]") {
  const std::vector<int64_t> fgd = Arrived(Run(TinyCluster(), TinyTrace(), "fgd", 9));
  for (const std::string& policy : GpuShareScorerNames()) {
    INFO(policy);
    CHECK(Arrived(Run(TinyCluster(), TinyTrace(), policy, 9)) == fgd);
  }
}

TEST_CASE("the originals come first in a shuffled order, then the clones", "[openb][workloads]") {
  const FillResult r = Run(TinyCluster(), TinyTrace(), "gpu-packing", 3);
  REQUIRE(r.pods_submitted > 12);  // 6350 < 7800: clones were added
  const std::vector<int64_t> requests = Requests(r);
  std::vector<int64_t> first(requests.begin(), requests.begin() + 12);
  std::sort(first.begin(), first.end());
  CHECK(first ==
        std::vector<int64_t>{0, 0, 0, 200, 250, 300, 400, 500, 700, 1000, 1000, 2000});
  CHECK(r.events[11].arrived_milli == 6350);
}

TEST_CASE("the top-up stops at the first clone whose per-GPU milli would pass the target",
          "[openb][workloads]") {
  // 6000 milli of capacity at ratio 1.3: the target is 7800.
  SECTION("whole-GPU pods stop below the target") {
    // 1000 + 6 clones = 7000; the next clone would make 8000 > 7800.
    for (uint64_t seed : {1, 2, 3}) {
      const FillResult r = Run(TinyCluster(), {Pod("w", 1000, 1000, 1)}, "fgd", seed);
      CHECK(r.pods_submitted == 7);
      CHECK(r.events.back().arrived_milli == 7000);
    }
  }
  SECTION("CPU-only clones never stop the top-up, the first GPU clone past the target does") {
    // Target 1.07 × 6000 = 6420: any GPU clone (200 milli or more) passes it.
    for (uint64_t seed = 1; seed <= 10; ++seed) {
      INFO("seed " << seed);
      const FillResult r = Run(TinyCluster(), TinyTrace(), "fgd", seed, 1.07);
      CHECK(r.events.back().arrived_milli == 6350);
      const std::vector<int64_t> requests = Requests(r);
      for (size_t i = 12; i < requests.size(); ++i) CHECK(requests[i] == 0);
    }
  }
}

// Protocol §2.2 step 6: "Because of the quirk, the final total can slightly exceed T when a
// multi-GPU clone is accepted." Tuning down applies only to a trace whose original total is
// above T ("If the total is above T ... tuneDownPods"), not to the overshoot of a top-up.
// Known failure: SubmissionOrder (sim/study/openb/fill_experiment.cc) runs its tune-down loop
// after the top-up too, so the overshoot is removed again (and random originals with it).
TEST_CASE("a 2-GPU clone accepted by the per-GPU stop test is kept past the target",
          "[openb][workloads]") {
  // 6000 milli of capacity at ratio 1.3: the target is 7800.
  SECTION("a trace of 2-GPU pods ends at 8000") {
    // 2000 → 4000 → 6000 → 8000: at 6000 the stop test sees 6000 + 1000 <= 7800 and keeps
    // the clone; a test on the whole request would stop at 6000.
    for (uint64_t seed : {1, 2, 3}) {
      INFO("seed " << seed);
      const FillResult r = Run(TinyCluster(), {Pod("two", 1000, 1000, 2)}, "fgd", seed);
      CHECK(r.pods_submitted == 4);
      CHECK(r.events.back().arrived_milli == 8000);
    }
  }
  SECTION("a mixed trace ends within one GPU of the target, the originals all submitted") {
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      INFO("seed " << seed);
      const FillResult r = Run(TinyCluster(), TinyTrace(), "fgd", seed);
      const int64_t total = r.events.back().arrived_milli;
      // The rejected clone had at most 1000 per GPU, and an accepted 2-GPU clone
      // passes the target by at most 1000.
      CHECK(total > 7800 - 1000);
      CHECK(total <= 7800 + 1000);
      REQUIRE(r.events.size() >= 12);
      CHECK(r.events[11].arrived_milli == 6350);
    }
  }
}

// Protocol §2.2 step 6: the loop has no test on the total besides the overflow of the
// drawn clone, so at exactly the target CPU-only clones (0 milli never overflows) are still
// appended until a GPU clone is drawn. Known failure: SubmissionOrder's top-up loop also
// stops as soon as the total reaches the target.
TEST_CASE("a top-up that lands exactly on the target still appends CPU-only clones until a GPU "
          "clone is drawn",
          "[openb][workloads]") {
  // One node of 2 GPUs at ratio 1.5: target 3000, reached exactly by whole-GPU clones.
  const std::vector<FillNode> one = {{"n0", 64000, 65536, 2, "T4"}};
  const std::vector<FillPod> trace = {Pod("a", 1000, 1000, 1), Pod("b", 1000, 0, 0)};
  int trailing_cpu_clones = 0;  // runs whose last pod is a CPU-only clone past the target
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const FillResult r = Run(one, trace, "fgd", seed, 1.5);
    REQUIRE(r.events.back().arrived_milli == 3000);
    if (r.pods_submitted > 2 && Requests(r).back() == 0) ++trailing_cpu_clones;
  }
  // Each run ends on a CPU-only clone with probability 1/2.
  CHECK(trailing_cpu_clones > 0);
}

// Protocol §2.2 step 6: "If the total is above T, tuneDownPods removes uniformly random pods
// until total <= T."
TEST_CASE("a trace above the target is tuned down to at most the target",
          "[openb][workloads]") {
  // 6350 milli against a target of 0.5 × 6000 = 3000.
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    INFO("seed " << seed);
    const FillResult r = Run(TinyCluster(), TinyTrace(), "fgd", seed, 0.5);
    CHECK(r.pods_submitted < 12);
    CHECK(r.events.back().arrived_milli <= 3000);
    // Only GPU pods need to go, but a removal is uniformly random: the last one removed
    // took the total from above 3000 to at most 3000.
    CHECK(r.events.back().arrived_milli > 3000 - 2000);
  }
}

TEST_CASE("a fill run records one event per submitted pod with arrival never decreasing",
          "[openb][workloads]") {
  for (const std::string& policy : GpuShareScorerNames()) {
    for (uint64_t seed : {1, 2}) {
      INFO(policy << " seed " << seed);
      const FillResult r = Run(TinyCluster(), TinyTrace(), policy, seed);
      CHECK(r.total_gpus == 6);
      REQUIRE(static_cast<int64_t>(r.events.size()) == r.pods_submitted);
      int64_t arrived = 0, used = 0;
      for (const FillEvent& e : r.events) {
        CHECK(e.arrived_milli >= arrived);
        CHECK(e.used_milli >= used);  // pods never leave
        CHECK(e.used_milli <= kTinyCapacity);
        CHECK(e.used_milli <= e.arrived_milli);
        CHECK(e.idle_milli == static_cast<double>(kTinyCapacity - e.used_milli));
        CHECK(e.frag_milli >= 0);
        CHECK(e.frag_milli <= e.idle_milli + 1e-9);
        arrived = e.arrived_milli;
        used = e.used_milli;
      }
      // A GPU pod is either placed whole or not at all.
      const std::vector<int64_t> requests = Requests(r);
      int64_t previous_used = 0;
      for (size_t i = 0; i < r.events.size(); ++i) {
        const int64_t gained = r.events[i].used_milli - previous_used;
        CHECK((gained == 0 || gained == requests[i]));
        previous_used = r.events[i].used_milli;
      }
    }
  }
}

TEST_CASE("pods that fit on no node are dropped and counted by shape", "[openb][workloads]") {
  // 8900 milli at ratio 1.4917 (target 8950): no GPU clone fits under the target, so only
  // CPU-only clones are added and the trace is neither topped up past nor tuned down.
  const std::vector<FillPod> trace = {
      Pod("f0", 1000, 1000, 4),                        // more GPUs than any node has
      Pod("f0b", 1000, 1000, 4),
      Pod("f1", 200000, 100, 1),                       // more CPU than any node has
      Pod("f2", 1000, 300, 1, "", 1'000'000'000),      // more memory than any node has
      Pod("f3", 1000, 500, 1), Pod("f4", 1000, 0, 0)};
  for (const std::string& policy : GpuShareScorerNames()) {
    for (uint64_t seed : {1, 2, 3}) {
      INFO(policy << " seed " << seed);
      const FillResult r = Run(TinyCluster(), trace, policy, seed, 1.4917);
      // Each of the three unschedulable shapes has a GPU request of its own.
      std::map<int64_t, int64_t> submitted;  // request -> pods
      std::map<int64_t, int64_t> placed;
      const std::vector<int64_t> requests = Requests(r);
      int64_t previous_used = 0;
      for (size_t i = 0; i < r.events.size(); ++i) {
        const int64_t request = requests[i];
        ++submitted[request];
        if (r.events[i].used_milli > previous_used) ++placed[request];
        previous_used = r.events[i].used_milli;
      }
      CHECK(placed[4000] == 0);
      CHECK(placed[100] == 0);
      CHECK(placed[300] == 0);
      CHECK(submitted[4000] == 2);
      CHECK(submitted[100] == 1);
      CHECK(submitted[300] == 1);
      CHECK(submitted[500] == 1);
      CHECK(placed[500] == 1);
      std::map<PodShape, int64_t> failed;
      int64_t total = 0;
      for (size_t i = 0; i < r.failed.size(); ++i) {
        failed[r.failed[i].shape] = r.failed[i].count;
        total += r.failed[i].count;
        if (i > 0) CHECK(r.failed[i - 1].count >= r.failed[i].count);
      }
      CHECK(failed.size() == 3);
      REQUIRE(!r.failed.empty());
      CHECK(r.failed[0].shape == PodShape{1000, 1000, 4, ""});  // the most frequent first
      CHECK(failed[PodShape{1000, 1000, 4, ""}] == submitted[4000]);
      CHECK(failed[PodShape{200000, 100, 1, ""}] == submitted[100]);
      CHECK(failed[PodShape{1000, 300, 1, ""}] == submitted[300]);
      CHECK(r.pods_failed == total);
      CHECK(r.pods_failed == submitted[4000] + submitted[100] + submitted[300]);
      // A failed pod still counts as arrived.
      CHECK(r.events.back().arrived_milli == 8900);
    }
  }
}

// Counts the calls a run makes; scores every node 0 and uses "best" GPU selection.
class CountingPolicy final : public GpuShareScorer {
 public:
  explicit CountingPolicy(int* scores) : scores_(scores) {}
  std::string_view name() const override { return "counting"; }
  int64_t Score(const GpuShareNode&, const PodShape&) override {
    ++*scores_;
    return 0;
  }
  std::vector<int> SelectGpus(const GpuShareNode& node, const PodShape& pod) override {
    return BestFitGpus(node, pod);
  }

 private:
  int* scores_;
};

TEST_CASE("a pod with a single feasible node goes there without scoring", "[openb][workloads]") {
  int scores = 0;
  const GpuShareScorerFactory counting = [&scores](std::string_view, const GpuShareContext&) {
    return std::make_unique<CountingPolicy>(&scores);
  };
  // Only n1 is a V100M16: every pod has exactly one feasible node.
  const std::vector<FillPod> constrained = {Pod("a", 1000, 300, 1, "V100M16"),
                                            Pod("b", 1000, 600, 1, "V100M16"),
                                            Pod("c", 1000, 1000, 1, "V100M16|V100M32")};
  // Ratio 0.3665: target 2199, just below the 1900 of the trace plus its smallest pod, so
  // no clone is added.
  Result<FillResult> r = RunFill(TinyCluster(), constrained, FillConfig{"counting", 1, 0.3665},
                                 counting);
  REQUIRE(r.ok());
  CHECK(r.value().pods_submitted == 3);
  CHECK(scores == 0);
  CHECK(r.value().pods_failed == 0);
  CHECK(r.value().events.back().used_milli == 1900);

  // An unconstrained pod has three feasible nodes, all scored.
  Result<FillResult> free = RunFill(TinyCluster(), {Pod("d", 1000, 300, 1)},
                                    FillConfig{"counting", 1, 0.05}, counting);
  REQUIRE(free.ok());
  REQUIRE(free.value().pods_submitted == 1);
  CHECK(scores == 3);

  // A real policy places the pods on the only node they fit.
  const FillResult packing = Run(TinyCluster(), constrained, "gpu-packing", 1, 0.3665);
  CHECK(packing.pods_failed == 0);
  CHECK(packing.events.back().used_milli == 1900);
}

TEST_CASE("a fill run rejects an unknown policy and an empty cluster", "[openb][workloads]") {
  Result<FillResult> unknown =
      RunFill(TinyCluster(), TinyTrace(), FillConfig{"no-such-policy", 1, 1.3}, &MakeGpuShareScorer);
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.status().code() == StatusCode::kInvalidArgument);
  CHECK_THAT(unknown.status().message(), Catch::Contains("no-such-policy"));

  Result<FillResult> empty = RunFill({}, TinyTrace(), FillConfig{"fgd", 1, 1.3}, &MakeGpuShareScorer);
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.status().code() == StatusCode::kInvalidArgument);
}

// ---------------------------------------------------------------------------------------
// The real default trace (tests/support/openb_data.h: skipped when the shared data is
// absent).

struct OpenbDefault {
  std::vector<FillNode> nodes;
  std::vector<FillPod> pods;
};

// The 1213 GPU nodes and the default trace; ends the process as skipped when the shared
// data is absent.
OpenbDefault LoadOpenbDefault() {
  const std::string dir = test::OpenbDataDirOrSkip();
  const std::string node_file = dir + "openb_node_list_gpu_node.csv";
  const std::string pod_file = dir + "openb_pod_list_default.csv";
  Result<std::vector<OpenbNode>> openb_nodes = LoadOpenbNodes(node_file);
  Result<std::vector<OpenbPod>> openb_pods = LoadOpenbPods(pod_file);
  if (!openb_nodes.ok()) FAIL(openb_nodes.status().ToString());
  if (!openb_pods.ok()) FAIL(openb_pods.status().ToString());
  OpenbDefault data;
  for (const OpenbNode& n : openb_nodes.value()) {
    data.nodes.push_back({n.name, n.cpu_milli, n.memory_mib, n.gpus, n.model});
  }
  for (const OpenbPod& p : openb_pods.value()) {
    data.pods.push_back({p.name, p.memory_mib, p.shape});
  }
  return data;
}

TEST_CASE("fgd on the default trace allocates about 95 % of the GPUs by the end",
          "[openb][study][.][openb-data]") {
  const OpenbDefault data = LoadOpenbDefault();
  const std::vector<FillNode>& nodes = data.nodes;
  const std::vector<FillPod>& pods = data.pods;
  const FillResult r = Run(nodes, pods, "fgd", 42);
  constexpr int64_t kCapacity = 6'212'000;
  CHECK(r.total_gpus == 6212);
  REQUIRE(!r.events.empty());
  // Reference: MilliGpu 95.3 % at the end of the run (protocol §2.5).
  const double allocated = static_cast<double>(r.events.back().used_milli) / kCapacity;
  CHECK(allocated >= 0.94);
  CHECK(allocated <= 0.97);
  // Tuned to 130 % of capacity (8,075,600): within one GPU below, one 8-GPU clone above.
  CHECK(r.events.back().arrived_milli > 8'075'600 - 1000);
  CHECK(r.events.back().arrived_milli <= 8'075'600 + 7000);
  REQUIRE(r.events.size() > 8152);
  CHECK(r.events[8151].arrived_milli == 6'086'800);  // the originals come first

  // Every pod is accounted for: submitted = placed + failed. GPU pods are told apart by
  // their arrival; a placed one raises the allocation by its whole request.
  REQUIRE(static_cast<int64_t>(r.events.size()) == r.pods_submitted);
  int64_t cpu_pods = 0, gpu_placed = 0, gpu_failed = 0;
  int64_t arrived = 0, used = 0;
  for (const FillEvent& e : r.events) {
    const int64_t request = e.arrived_milli - arrived;
    const int64_t gained = e.used_milli - used;
    if (request == 0) {
      ++cpu_pods;
      CHECK(gained == 0);
    } else if (gained == request) {
      ++gpu_placed;
    } else {
      CHECK(gained == 0);
      ++gpu_failed;
    }
    arrived = e.arrived_milli;
    used = e.used_milli;
  }
  int64_t failed_gpu_shapes = 0, failed_cpu_shapes = 0;
  for (const FailedShape& f : r.failed) {
    (f.shape.num_gpu > 0 && f.shape.gpu_milli > 0 ? failed_gpu_shapes : failed_cpu_shapes) +=
        f.count;
  }
  CHECK(failed_gpu_shapes == gpu_failed);
  const int64_t placed = gpu_placed + (cpu_pods - failed_cpu_shapes);
  CHECK(r.pods_submitted == placed + r.pods_failed);
  CHECK(r.pods_failed == failed_gpu_shapes + failed_cpu_shapes);
  CHECK(r.pods_failed > 0);  // 130 % of capacity cannot all fit
}

// A category's share of the run's final idle milli-GPU, in %.
double IdlePercent(const FillResult& r, double FragBreakdown::*category) {
  return 100 * r.final_state.idle.*category / r.final_state.idle.idle();
}

// The reference simulator's final report of its FGD run on the default trace (seed 42,
// openb-protocol.md §2.5) is one sample; migsim's own RNG cannot replay that run (§6), so
// each reported figure must lie within three standard deviations of migsim's mean over 20
// seeds. A wrong fragmentation category or fit rule moves these by far more.
TEST_CASE("fgd's final state on the default trace matches the reference run within the "
          "seed-to-seed spread",
          "[openb][study][.][openb-data]") {
  const OpenbDefault data = LoadOpenbDefault();
  constexpr size_t kSeeds = 20;
  std::vector<FillResult> runs(kSeeds);
  ParallelFor(kSeeds, WorkerCount(0), [&](size_t i) {
    Result<FillResult> r = RunFill(data.nodes, data.pods, FillConfig{"fgd", 42 + i, 1.3},
                                   &MakeGpuShareScorer);
    if (r.ok()) runs[i] = std::move(r).value();
  });
  struct Field {
    const char* name;
    double reference;
    double (*value)(const FillResult&);
  };
  const Field fields[] = {
      {"MilliCpu %", 84.0,
       [](const FillResult& r) {
         return 100.0 * static_cast<double>(r.final_state.cpu_milli_used) /
                static_cast<double>(r.final_state.cpu_milli_total);
       }},
      {"Memory %", 62.3,
       [](const FillResult& r) {
         return 100.0 * static_cast<double>(r.final_state.memory_mib_used) /
                static_cast<double>(r.final_state.memory_mib_total);
       }},
      {"GPUs allocated", 6189,
       [](const FillResult& r) { return static_cast<double>(r.final_state.gpus_allocated); }},
      {"MilliGpu %", 95.3,
       [](const FillResult& r) {
         return static_cast<double>(r.final_state.milli_gpu_used) / 62'120.0;
       }},
      {"idle milli-GPU", 292'590, [](const FillResult& r) { return r.final_state.idle.idle(); }},
      {"frag milli-GPU", 291'360,
       [](const FillResult& r) { return r.final_state.idle.fragment(); }},
      {"q1 %", 47.31, [](const FillResult& r) { return IdlePercent(r, &FragBreakdown::q1); }},
      {"q2 %", 29.35, [](const FillResult& r) { return IdlePercent(r, &FragBreakdown::q2); }},
      {"q3 %", 0.42, [](const FillResult& r) { return IdlePercent(r, &FragBreakdown::q3); }},
      {"q4 %", 9.32, [](const FillResult& r) { return IdlePercent(r, &FragBreakdown::q4); }},
      {"xl %", 2.07, [](const FillResult& r) { return IdlePercent(r, &FragBreakdown::xl); }},
      {"xr %", 11.53, [](const FillResult& r) { return IdlePercent(r, &FragBreakdown::xr); }},
  };
  for (const Field& f : fields) {
    double mean = 0, var = 0;
    for (const FillResult& r : runs) mean += f.value(r) / kSeeds;
    for (const FillResult& r : runs) var += (f.value(r) - mean) * (f.value(r) - mean);
    const double sd = std::sqrt(var / (kSeeds - 1));
    INFO(f.name << ": reference " << f.reference << ", migsim " << mean << " +- " << sd);
    CHECK(std::abs(f.reference - mean) <= 3 * sd);
  }
}

}  // namespace
}  // namespace migsim
