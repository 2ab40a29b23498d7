// The GPU-sharing filter, the "best" GPU selection and the six openb policies
// (docs: openb-protocol.md §3, §4, §4.7), on small hand-built nodes.
#include "policies/gpu_share_scorers.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "sim/core/rng.h"
#include "sim/io/openb_csv.h"
#include "sim/policy/gpu_fragmentation.h"
#include "sim/policy/gpu_share.h"
#include "sim/policy/gpu_share_scorer.h"
#include "tests/support/openb_data.h"

namespace migsim {
namespace {

PodShape Pod(int64_t cpu_milli, int32_t gpu_milli, int32_t num_gpu, std::string type = "") {
  return PodShape{cpu_milli, gpu_milli, num_gpu, std::move(type)};
}

GpuShareNode Node(int64_t cpu_left_milli, std::vector<int32_t> free, std::string model = "G2",
                  uint32_t tags = 0) {
  return GpuShareNode{cpu_left_milli, std::move(free), std::move(model), tags};
}

std::unique_ptr<GpuShareScorer> Make(const std::string& name,
                                     const GpuShareContext& context = {}) {
  std::unique_ptr<GpuShareScorer> policy = MakeGpuShareScorer(name, context);
  REQUIRE(policy != nullptr);
  return policy;
}

// ---------------------------------------------------------------------------------------
// The filter (§3(b)).

TEST_CASE("a sharing pod fits only when one GPU alone has enough free milli",
          "[openb][policies]") {
  CHECK(FitsGpuShare(Node(0, {400, 600}), Pod(1000, 500, 1)));
  CHECK(FitsGpuShare(Node(0, {400, 500}), Pod(1000, 500, 1)));  // exactly enough
  // 900 milli free in total, but no single GPU holds 500: a sharing pod never spans GPUs.
  CHECK_FALSE(FitsGpuShare(Node(0, {450, 450}), Pod(1000, 500, 1)));
  CHECK(FitsGpuShare(Node(0, {0, 1000}), Pod(1000, 999, 1)));  // a fully free GPU counts
  CHECK_FALSE(FitsGpuShare(Node(0, {999, 999}), Pod(1000, 1000, 1)));
}

TEST_CASE("a multi-GPU pod needs that many fully free GPUs", "[openb][policies]") {
  CHECK(FitsGpuShare(Node(0, {1000, 999, 1000}), Pod(0, 1000, 2)));
  CHECK_FALSE(FitsGpuShare(Node(0, {1000, 999, 999, 0}), Pod(0, 1000, 2)));
  CHECK(FitsGpuShare(Node(0, std::vector<int32_t>(8, 1000)), Pod(0, 1000, 8)));
  CHECK_FALSE(FitsGpuShare(Node(0, {1000, 1000, 1000, 1000, 1000, 1000, 1000, 10}),
                           Pod(0, 1000, 8)));
  CHECK_FALSE(FitsGpuShare(Node(0, {1000, 1000}), Pod(0, 1000, 4)));  // too few GPUs at all
}

TEST_CASE("a type constraint admits only the listed GPU models", "[openb][policies]") {
  const PodShape pod = Pod(1000, 500, 1, "V100M16|V100M32");
  CHECK(FitsGpuShare(Node(0, {1000}, "V100M16"), pod));
  CHECK(FitsGpuShare(Node(0, {1000}, "V100M32"), pod));
  CHECK_FALSE(FitsGpuShare(Node(0, {1000}, "T4"), pod));
  CHECK_FALSE(FitsGpuShare(Node(0, {1000}, "V100"), pod));  // whole names, not prefixes
  CHECK_FALSE(FitsGpuShare(Node(0, {400}, "V100M16"), pod));  // the model fits, the GPU not
  // Empty pieces are ignored; a constraint of only empty pieces admits any model.
  CHECK(FitsGpuShare(Node(0, {1000}, "T4"), Pod(1000, 500, 1, "|T4|")));
  CHECK(FitsGpuShare(Node(0, {1000}, "T4"), Pod(1000, 500, 1, "||")));
  CHECK(FitsGpuShare(Node(0, {1000}, "T4"), Pod(1000, 500, 1, "")));
  CHECK(FitsGpuShare(Node(0, {1000, 1000}, "V100M32"), Pod(0, 1000, 2, "V100M16|V100M32")));
}

TEST_CASE("a CPU-only pod passes the GPU filter on any node", "[openb][policies]") {
  const PodShape cpu_only = Pod(12500, 0, 0);
  CHECK(FitsGpuShare(Node(0, {0, 0}), cpu_only));        // no free GPU
  CHECK(FitsGpuShare(Node(0, {}, ""), cpu_only));         // no GPU at all
  CHECK(FitsGpuShare(Node(0, {1000}, "T4"), Pod(12500, 0, 0, "V100M16")));
  // A GPU pod never fits on a node without GPUs.
  CHECK_FALSE(FitsGpuShare(Node(64000, {}, ""), Pod(1000, 100, 1)));
}

// ---------------------------------------------------------------------------------------
// GPU selection "best" (§4.7).

TEST_CASE("best-fit selection gives a sharing pod the tightest GPU that fits, lowest index on "
          "ties",
          "[openb][policies]") {
  const GpuShareNode node = Node(0, {1000, 300, 600, 300, 250});
  CHECK(BestFitGpus(node, Pod(0, 260, 1)) == std::vector<int>{1});  // 300 twice: index 1
  CHECK(BestFitGpus(node, Pod(0, 250, 1)) == std::vector<int>{4});  // an exact fit
  CHECK(BestFitGpus(node, Pod(0, 301, 1)) == std::vector<int>{2});
  CHECK(BestFitGpus(node, Pod(0, 601, 1)) == std::vector<int>{0});  // only the free GPU
  CHECK(BestFitGpus(Node(0, {700, 1000, 1000}), Pod(0, 800, 1)) == std::vector<int>{1});
  CHECK(BestFitGpus(Node(0, {100, 200}), Pod(0, 300, 1)).empty());  // nothing fits
}

TEST_CASE("best-fit selection gives whole-GPU pods the lowest-index fully free GPUs",
          "[openb][policies]") {
  CHECK(BestFitGpus(Node(0, {600, 1000, 1000}), Pod(0, 1000, 1)) == std::vector<int>{1});
  CHECK(BestFitGpus(Node(0, {1000, 500, 1000, 1000}), Pod(0, 1000, 2)) ==
        std::vector<int>{0, 2});
  CHECK(BestFitGpus(Node(0, {0, 1000, 999, 1000, 1000, 1000}), Pod(0, 1000, 4)) ==
        std::vector<int>{1, 3, 4, 5});
  CHECK(BestFitGpus(Node(0, {1000, 1000}), Pod(5000, 0, 0)).empty());  // CPU-only: no GPU
  CHECK(LowestFreeGpus(Node(0, {1000, 0, 1000}), 5) == std::vector<int>{0, 2});
}

TEST_CASE("placing a pod takes its CPU and its milli from each chosen GPU", "[openb][policies]") {
  const std::vector<int> gpus{1, 2};
  const GpuShareNode after = WithPod(Node(64000, {1000, 1000, 1000}), Pod(8000, 1000, 2), gpus);
  CHECK(after.cpu_left_milli == 56000);
  CHECK(after.gpu_free_milli == std::vector<int32_t>{1000, 0, 0});
  CHECK(GpuLeftMilli(after) == 1000);
}

// ---------------------------------------------------------------------------------------
// GpuPacking (§4.4): the Go unit-test vectors.

TEST_CASE("gpu-packing reproduces the reference simulator's unit-test scores",
          "[openb][policies]") {
  std::unique_ptr<GpuShareScorer> packing = Make("gpu-packing");
  CHECK(packing->Score(Node(64000, {200, 1000, 1000, 500}), Pod(1000, 1000, 2)) == 48);
  CHECK(packing->Score(Node(64000, std::vector<int32_t>(4, 1000)), Pod(1000, 1000, 2)) == 29);
  CHECK(packing->Score(Node(64000, std::vector<int32_t>(8, 1000)), Pod(1000, 1000, 2)) == 25);
  CHECK(packing->Score(Node(64000, {200, 1000, 1000, 500}), Pod(1000, 200, 2)) == 93);
}

TEST_CASE("gpu-packing prefers partly used GPUs, then partly used nodes, then small empty "
          "nodes",
          "[openb][policies]") {
  std::unique_ptr<GpuShareScorer> packing = Make("gpu-packing");
  // Case 1: the pod lands on a partly used GPU: 100 − floor(floor(600×100/1000)/10) = 94.
  CHECK(packing->Score(Node(64000, {1000, 600}), Pod(1000, 500, 1)) == 94);
  // Case 2: one fully free GPU picked on a partly used node: 50 − 1.
  CHECK(packing->Score(Node(64000, {1000, 300}), Pod(1000, 500, 1)) == 49);
  // Case 3: an empty node, max(33 − f, f).
  CHECK(packing->Score(Node(64000, {1000, 1000}), Pod(1000, 500, 1)) == 31);
  CHECK(packing->Score(Node(64000, {1000}), Pod(1000, 500, 1)) == 32);
  CHECK(packing->Score(Node(64000, {1000, 300}), Pod(1000, 0, 0)) == 0);  // CPU-only
  CHECK(packing->SelectGpus(Node(64000, {1000, 600, 700}), Pod(1000, 500, 1)) ==
        std::vector<int>{1});
}

// ---------------------------------------------------------------------------------------
// GpuClustering (§4.3).

TEST_CASE("gpu-clustering adds 75 for the pod's tag alone, 50 beside others, 25 on an untagged "
          "node",
          "[openb][policies]") {
  std::unique_ptr<GpuShareScorer> clustering = Make("gpu-clustering");
  const PodShape share = Pod(1000, 500, 1);    // tag share-gpu
  const PodShape whole = Pod(1000, 1000, 1);   // tag 1-gpu
  const PodShape two = Pod(1000, 1000, 2);     // tag 2-gpu
  const uint32_t share_tag = AffinityTag(share);
  const uint32_t whole_tag = AffinityTag(whole);
  const uint32_t two_tag = AffinityTag(two);
  REQUIRE(share_tag != whole_tag);
  REQUIRE(whole_tag != two_tag);
  REQUIRE(share_tag != two_tag);
  // 4500 milli left of 8 GPUs: base = 25 × 3500 / 8000 = 10 (integer division).
  const std::vector<int32_t> free{1000, 1000, 1000, 1000, 500, 0, 0, 0};
  CHECK(clustering->Score(Node(64000, free, "G2", share_tag), share) == 10 + 75);
  CHECK(clustering->Score(Node(64000, free, "G2", share_tag | whole_tag), share) == 10 + 50);
  CHECK(clustering->Score(Node(64000, free, "G2", 0), share) == 10 + 25);
  CHECK(clustering->Score(Node(64000, free, "G2", whole_tag | two_tag), share) == 10);
  CHECK(clustering->Score(Node(64000, free, "G2", two_tag), two) == 10 + 75);
  CHECK(clustering->Score(Node(64000, free, "G2", two_tag), whole) == 10);
  // An empty 8-GPU node has base 0; an empty 2-GPU node base 25 × 6000 / 8000 = 18.
  CHECK(clustering->Score(Node(64000, std::vector<int32_t>(8, 1000)), whole) == 25);
  CHECK(clustering->Score(Node(64000, {1000, 1000}, "T4"), whole) == 18 + 25);
  // A CPU-only pod scores 0 everywhere.
  CHECK(clustering->Score(Node(64000, free, "G2", share_tag), Pod(8000, 0, 0)) == 0);
  CHECK(clustering->Score(Node(64000, free, "G2", 0), Pod(8000, 0, 0)) == 0);
}

TEST_CASE("affinity tags tell apart CPU-only, sharing and k-GPU pods", "[openb][policies]") {
  CHECK(AffinityTag(Pod(1000, 0, 0)) == 0);
  const std::set<uint32_t> tags{AffinityTag(Pod(1, 500, 1)), AffinityTag(Pod(1, 1000, 1)),
                                AffinityTag(Pod(1, 1000, 2)), AffinityTag(Pod(1, 1000, 4)),
                                AffinityTag(Pod(1, 1000, 8))};
  CHECK(tags.size() == 5);
  CHECK(tags.count(0) == 0);
  CHECK(AffinityTag(Pod(1, 100, 1)) == AffinityTag(Pod(9, 999, 1)));  // every sharing pod
}

// ---------------------------------------------------------------------------------------
// DotProd (§4.2) and BestFit (§4.5).

TEST_CASE("dot-product scores 100 × (1 − the halved dot product of free and requested "
          "resources)",
          "[openb][policies]") {
  std::unique_ptr<GpuShareScorer> dot = Make("dot-product");
  // d = (64000/128000 × 8000/128000 + 1500/8000 × 500/8000) / 2 = 0.021484375 → 97.85 → 97.
  CHECK(dot->Score(Node(64000, {1000, 500}), Pod(8000, 500, 1)) == 97);
  // d = (1 × 1 + 1 × 1) / 2 = 1 → 0.
  CHECK(dot->Score(Node(128000, std::vector<int32_t>(8, 1000)), Pod(128000, 1000, 8)) == 0);
  // d = (0.5 × 0.25 + 1 × 0.25) / 2 = 0.1875 → 81.25 → 81.
  CHECK(dot->Score(Node(64000, std::vector<int32_t>(8, 1000)), Pod(32000, 1000, 2)) == 81);
  // A CPU-only pod: d = (0.5 × 0.0625) / 2 → 98.4375 → 98.
  CHECK(dot->Score(Node(64000, {1000, 1000}), Pod(8000, 0, 0)) == 98);
  CHECK(dot->SelectGpus(Node(64000, {1000, 500, 700}), Pod(8000, 500, 1)) == std::vector<int>{1});
}

TEST_CASE("best-fit-share scores 100 × (1 − the mean of the CPU and GPU fractions left)",
          "[openb][policies]") {
  std::unique_ptr<GpuShareScorer> best = Make("best-fit-share");
  // s = 0.5 × 56000/128000 + 0.5 × 1000/8000 = 0.28125 → 71.875 → 71.
  CHECK(best->Score(Node(64000, {1000, 500}), Pod(8000, 500, 1)) == 71);
  // A full fit leaves nothing: 100.
  CHECK(best->Score(Node(8000, {1000, 1000}), Pod(8000, 1000, 2)) == 100);
  // A CPU-only pod still sees the GPUs left, so it prefers nodes with few free GPUs:
  // 100 × (1 − 0.21875) = 78.125 and 100 × (1 − 0.21875 − 0.125) = 65.625.
  CHECK(best->Score(Node(64000, {0, 0}), Pod(8000, 0, 0)) == 78);
  CHECK(best->Score(Node(64000, {1000, 1000}), Pod(8000, 0, 0)) == 65);
  CHECK(best->SelectGpus(Node(64000, {1000, 900, 700}), Pod(8000, 500, 1)) == std::vector<int>{2});
}

// ---------------------------------------------------------------------------------------
// FGD (§4.6, §5.5).

TEST_CASE("fgd gives a sharing pod the GPU that adds the least fragmentation, the first on "
          "ties",
          "[openb][policies]") {
  // One typical pod of 600 milli on 1 GPU: a GPU with less than 600 free is fragment.
  const std::vector<TypicalPod> typical{TypicalPod(Pod(1000, 600, 1), 1.0)};
  Rng rng(1);
  std::unique_ptr<GpuShareScorer> fgd = Make("fgd", {&rng, typical});
  // On GPU 0, 500 would be left (ΔF = −500: trunc(100 × sigmoid(−0.5)) = 37); on GPU 1
  // 900 is left and F stays 0 (50).
  const GpuShareNode node = Node(64000, {600, 1000}, "T4");
  CHECK(fgd->Score(node, Pod(1000, 100, 1)) == 50);
  CHECK(fgd->SelectGpus(node, Pod(1000, 100, 1)) == std::vector<int>{1});
  // Both GPUs leave F at 0: the first index wins.
  CHECK(fgd->SelectGpus(Node(64000, {1000, 1000}, "T4"), Pod(1000, 100, 1)) ==
        std::vector<int>{0});
  // Whole-GPU pods take the lowest-index free GPUs; CPU-only pods none.
  CHECK(fgd->SelectGpus(Node(64000, {600, 1000, 1000}, "T4"), Pod(1000, 1000, 1)) ==
        std::vector<int>{1});
  CHECK(fgd->SelectGpus(Node(64000, {600, 1000}, "T4"), Pod(1000, 0, 0)).empty());
  // A 600 pod: filling the 600 GPU exactly leaves F at 0 (50), while putting it on the free
  // GPU leaves 400 that no typical pod can use (ΔF = −400: 40).
  CHECK(fgd->Score(Node(64000, {600, 1000}, "T4"), Pod(1000, 600, 1)) == 50);
  CHECK(fgd->SelectGpus(Node(64000, {1000, 600}, "T4"), Pod(1000, 600, 1)) ==
        std::vector<int>{1});
}

TEST_CASE("fgd reproduces the protocol's scores on a partly used G2 node",
          "[openb][policies][.][openb-data]") {
  const std::string path = test::OpenbDataDirOrSkip() + "openb_pod_list_default.csv";
  Result<std::vector<OpenbPod>> pods = LoadOpenbPods(path);
  if (!pods.ok()) FAIL(pods.status().ToString());
  std::vector<PodShape> shapes;
  for (const OpenbPod& p : pods.value()) shapes.push_back(p.shape);
  const std::vector<TypicalPod> typical = TypicalPods(shapes);
  REQUIRE(typical.size() == 35);
  Rng rng(42);
  std::unique_ptr<GpuShareScorer> fgd = Make("fgd", {&rng, typical});

  const GpuShareNode node = Node(60000, {1000, 1000, 1000, 1000, 1000, 1000, 1000, 190}, "G2");
  CHECK(NodeFragmentation(node, typical) == Approx(1140.52).margin(0.01));

  const PodShape a = Pod(3152, 810, 1);
  CHECK(fgd->Score(node, a) == 48);
  CHECK(fgd->SelectGpus(node, a) == std::vector<int>{0});

  const PodShape b = Pod(4000, 160, 1);
  CHECK(fgd->Score(node, b) == 53);
  CHECK(fgd->SelectGpus(node, b) == std::vector<int>{7});  // the 190 GPU
  // Any fully free GPU would score 40.
  GpuShareNode on_free = node;
  on_free.cpu_left_milli -= b.cpu_milli;
  on_free.gpu_free_milli[0] -= b.gpu_milli;
  CHECK(FgdScore(NodeFragmentation(node, typical), NodeFragmentation(on_free, typical)) == 40);

  const PodShape c = Pod(11300, 1000, 1);
  CHECK(fgd->Score(node, c) == 53);
  CHECK(fgd->SelectGpus(node, c) == std::vector<int>{0});

  const PodShape d = Pod(12500, 0, 0);
  CHECK(fgd->Score(node, d) == 50);
  CHECK(fgd->SelectGpus(node, d).empty());
}

// FGD as §4.6 states it: every fitting GPU scored on a copy of the node.
struct FgdChoice {
  int64_t score = 0;
  std::vector<int> gpus;
};
FgdChoice PlainFgd(const GpuShareNode& node, const PodShape& pod,
                   const std::vector<TypicalPod>& typical) {
  const double before = NodeFragmentation(node, typical);
  if (pod.num_gpu != 1 || pod.gpu_milli <= 0 || pod.gpu_milli >= kMilliPerGpu) {
    const std::vector<int> gpus = BestFitGpus(node, pod);
    return {FgdScore(before, NodeFragmentation(WithPod(node, pod, gpus), typical)), gpus};
  }
  FgdChoice best;
  for (size_t i = 0; i < node.gpu_free_milli.size(); ++i) {
    if (node.gpu_free_milli[i] < pod.gpu_milli) continue;
    const std::vector<int> gpu{static_cast<int>(i)};
    const int64_t score = FgdScore(before, NodeFragmentation(WithPod(node, pod, gpu), typical));
    if (best.gpus.empty() || score > best.score) best = {score, gpu};
  }
  return best;
}

TEST_CASE("fgd's score and GPUs are those of scoring every fitting GPU, with or without the "
          "node's fragmentation given",
          "[openb][policies]") {
  const std::vector<TypicalPod> typical{
      TypicalPod(Pod(4000, 500, 1), 0.4), TypicalPod(Pod(8000, 1000, 1), 0.3),
      TypicalPod(Pod(2000, 250, 1, "T4"), 0.1), TypicalPod(Pod(16000, 1000, 2), 0.1),
      TypicalPod(Pod(1000, 0, 0), 0.1)};
  Rng rng(3);
  std::unique_ptr<GpuShareScorer> fgd = Make("fgd", {&rng, typical});
  const std::vector<int32_t> levels = {0, 1000, 1000, 750, 500, 250, 100};
  const std::vector<PodShape> pods = {Pod(3000, 250, 1), Pod(3000, 500, 1),   Pod(6000, 1000, 1),
                                      Pod(9000, 1000, 2), Pod(2000, 0, 0), Pod(1000, 100, 1)};
  std::mt19937 gen(5);
  for (int trial = 0; trial < 400; ++trial) {
    std::vector<int32_t> free;
    const int gpus = std::uniform_int_distribution<int>(1, 8)(gen);
    for (int i = 0; i < gpus; ++i)
      free.push_back(levels[std::uniform_int_distribution<size_t>(0, levels.size() - 1)(gen)]);
    const GpuShareNode node =
        Node(std::uniform_int_distribution<int64_t>(0, 32000)(gen), free, trial % 2 ? "T4" : "G2");
    for (const PodShape& pod : pods) {
      if (!FitsGpuShare(node, pod)) continue;
      const FgdChoice plain = PlainFgd(node, pod, typical);
      INFO("trial " << trial << ", pod of " << pod.gpu_milli << " x " << pod.num_gpu);
      CHECK(fgd->Score(node, pod) == plain.score);
      CHECK(fgd->ScoreKnowingFrag(node, pod, NodeFragmentation(node, typical)) == plain.score);
      CHECK(fgd->SelectGpus(node, pod) == plain.gpus);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Random (§4.1).

TEST_CASE("random picks each feasible node about equally often", "[openb][policies]") {
  Rng rng(2024);
  std::unique_ptr<GpuShareScorer> random = Make("random", {&rng, {}});
  std::map<size_t, int> picks;
  for (int i = 0; i < 1000; ++i) {
    const std::optional<size_t> pick = random->PickNode(4);
    REQUIRE(pick.has_value());
    REQUIRE(*pick < 4);
    ++picks[*pick];
  }
  REQUIRE(picks.size() == 4);
  for (const auto& [node, count] : picks) {
    INFO("node " << node);
    CHECK(count > 180);  // expected 250, standard deviation about 14
    CHECK(count < 320);
  }
}

TEST_CASE("random gives a sharing pod only GPUs that fit, and each of them sometimes",
          "[openb][policies]") {
  Rng rng(7);
  std::unique_ptr<GpuShareScorer> random = Make("random", {&rng, {}});
  const GpuShareNode node = Node(64000, {400, 600, 1000, 499, 500});
  std::map<int, int> chosen;
  for (int i = 0; i < 300; ++i) {
    const std::vector<int> gpus = random->SelectGpus(node, Pod(1000, 500, 1));
    REQUIRE(gpus.size() == 1);
    ++chosen[gpus[0]];
  }
  CHECK(chosen.size() == 3);
  CHECK(chosen.count(1) == 1);
  CHECK(chosen.count(2) == 1);
  CHECK(chosen.count(4) == 1);
  // Whole-GPU pods take the lowest-index fully free GPUs, with no randomness.
  CHECK(random->SelectGpus(Node(64000, {400, 1000, 1000}), Pod(1000, 1000, 1)) ==
        std::vector<int>{1});
  CHECK(random->SelectGpus(Node(64000, {1000, 400, 1000}), Pod(1000, 1000, 2)) ==
        std::vector<int>{0, 2});
}

TEST_CASE("only the random policy picks the node itself", "[openb][policies]") {
  Rng rng(1);
  for (const std::string& name : GpuShareScorerNames()) {
    INFO(name);
    std::unique_ptr<GpuShareScorer> policy = Make(name, {&rng, {}});
    CHECK(policy->PickNode(3).has_value() == (name == "random"));
  }
}

// ---------------------------------------------------------------------------------------
// The registry.

TEST_CASE("the registry knows exactly the six policies of the FGD study", "[openb][policies]") {
  CHECK(GpuShareScorerNames() == std::vector<std::string>{"random", "dot-product",
                                                          "gpu-clustering", "gpu-packing",
                                                          "best-fit-share", "fgd"});
  Rng rng(1);
  for (const std::string& name : GpuShareScorerNames()) {
    std::unique_ptr<GpuShareScorer> policy = MakeGpuShareScorer(name, {&rng, {}});
    REQUIRE(policy != nullptr);
    CHECK(policy->name() == name);
  }
}

TEST_CASE("the registry returns nullptr for unknown policy names", "[openb][policies]") {
  CHECK(MakeGpuShareScorer("", {}) == nullptr);
  CHECK(MakeGpuShareScorer("FGD", {}) == nullptr);
  CHECK(MakeGpuShareScorer("best-fit", {}) == nullptr);
  CHECK(MakeGpuShareScorer("fgd ", {}) == nullptr);
}

}  // namespace
}  // namespace migsim
