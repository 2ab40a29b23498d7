#include "sim/study/openb/mig_fill.h"

#include <catch2/catch.hpp>

#include "policies/mig_scorers.h"

namespace migsim {
namespace {

std::vector<FillPod> Trace() {
  std::vector<FillPod> pods;
  auto add = [&](const char* name, int32_t milli, int32_t gpus) {
    pods.push_back({name, 1024, PodShape{4000, milli, gpus, ""}});
  };
  add("a-whole", 1000, 1);
  add("b-half", 470, 1);   // 4g.20gb
  add("c-small", 100, 1);  // 1g.5gb
  add("d-cpu", 0, 0);
  add("e-pair", 1000, 2);
  add("f-third", 300, 1);  // 3g.20gb
  return pods;
}

// Pods topped up to 130 % of 16 GPUs, on `gpus` GPUs.
MigFillResult Run(const std::string& policy, const std::string& layout, uint64_t seed,
                  int64_t gpus = 16) {
  MigFillConfig config{policy, layout, seed, 1.3, 16};
  Result<MigFillResult> r = RunMigFill(P4dCluster(gpus), Trace(), config, &MakeMigScorer);
  REQUIRE(r.ok());
  return std::move(r).value();
}

TEST_CASE("the MIG fill is deterministic per seed and accounts for every pod",
          "[workloads][mig_fill]") {
  // The submissions the plan calls for: the run's first draws from its seed (§2.2).
  const std::vector<FillPod> trace = Trace();
  Rng rng(7);
  const int64_t planned =
      static_cast<int64_t>(PlanSubmissions(trace, 1.3 * 1000.0 * 16, rng).order.size());
  for (const char* policy : {"mig-first-fit", "mig-best-fit", "mig-fgd"}) {
    INFO(policy);
    const MigFillResult a = Run(policy, "", 7), b = Run(policy, "", 7);
    REQUIRE(a.events.size() == b.events.size());
    CHECK(a.events.back().placed_milli == b.events.back().placed_milli);
    CHECK(a.events.back().used_slices == b.events.back().used_slices);
    CHECK(a.pods_submitted == planned);
    CHECK(static_cast<int64_t>(a.events.size()) == planned);
    // A GPU pod whose arrival left the placed milli-GPU unchanged failed; a CPU pod's
    // event cannot tell, so the failures lie between the two.
    int64_t gpu_unplaced = 0, cpu_pods = 0;
    MigFillEvent before;
    for (const MigFillEvent& e : a.events) {
      if (e.arrived_milli == before.arrived_milli) ++cpu_pods;
      if (e.arrived_milli > before.arrived_milli && e.placed_milli == before.placed_milli) {
        ++gpu_unplaced;
      }
      before = e;
    }
    CHECK(gpu_unplaced > 0);  // 130 % of 16 GPUs do not all fit
    CHECK(a.pods_failed >= gpu_unplaced);
    CHECK(a.pods_failed <= gpu_unplaced + cpu_pods);
    CHECK(a.events.back().used_slices <= 7 * a.gpus);
    CHECK(a.gpus == 16);
  }
}

TEST_CASE("a static 7g layout takes only pods that map to 7g, dynamic partitioning takes all",
          "[workloads][mig_fill]") {
  // 64 GPUs for a demand of 16: room for everything that can go anywhere.
  const MigFillResult fixed = Run("mig-best-fit", "all-7g.40gb", 3, 64);
  const MigFillResult dynamic = Run("mig-best-fit", "", 3, 64);
  CHECK(fixed.pods_failed > 0);  // the 4g, 3g and 1g requests find no GI of their profile
  CHECK(dynamic.pods_failed == 0);
  CHECK(dynamic.events.back().placed_milli > fixed.events.back().placed_milli);
}

TEST_CASE("an unknown MIG policy or layout is an error", "[workloads][mig_fill]") {
  CHECK_FALSE(
      RunMigFill(P4dCluster(8), Trace(), {"nope", "", 1, 1.3, 8}, &MakeMigScorer).ok());
  CHECK_FALSE(
      RunMigFill(P4dCluster(8), Trace(), {"mig-fgd", "all-9g", 1, 1.3, 8}, &MakeMigScorer)
          .ok());
  CHECK(P4dCluster(6212).size() == 777);
}

}  // namespace
}  // namespace migsim
