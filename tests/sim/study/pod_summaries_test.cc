// Runs that give back the records of pods that are over (RunOptions::exact_limit) report
// what runs keeping every pod report: the same counts and times, sums to rounding, and
// percentiles within the sketch's stated relative error.
#include "sim/study/pod_summaries.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "sim/io/scenario_json.h"
#include "sim/study/run.h"

namespace migsim {
namespace {

Scenario Mig100k() {
  Result<ScenarioFile> file =
      LoadScenarioFile(std::string(MIGSIM_SOURCE_DIR) + "/bench/scenarios/mig-100k.json");
  if (!file.ok()) FAIL(file.status().ToString());
  return file.value().variants.front().second;  // first-fit
}

bool Within(double estimate, double exact, double alpha) {
  return std::abs(estimate - exact) <= alpha * std::abs(exact) * (1 + 1e-9);
}

void CheckPercentiles(const LatencyStats& got, const LatencyStats& want, double alpha) {
  CHECK(got.relative_error == alpha);
  CHECK(got.count == want.count);
  CHECK(got.max_s == want.max_s);
  CHECK(got.mean_s == Approx(want.mean_s).epsilon(1e-9));
  CHECK(Within(got.p50_s, want.p50_s, alpha));
  CHECK(Within(got.p95_s, want.p95_s, alpha));
  CHECK(Within(got.p99_s, want.p99_s, alpha));
}

// Counts the pods released, as a run's observer.
struct ReleaseCounter final : EngineObserver {
  int64_t pods = 0;
  void OnPodsReleased(std::span<const Pod> block) override {
    pods += static_cast<int64_t>(block.size());
  }
};

}  // namespace

TEST_CASE("a run of 100,000 pods that releases them reports what a run keeping them reports",
          "[study][stream]") {
  const Scenario s = Mig100k();
  std::vector<std::string> kept_names, streamed_names;
  const VariantResult kept =
      RunVariant("kept", s, {.collect_pods = true});
  for (const PodRecord& r : kept.pods) kept_names.push_back(r.name);
  ReleaseCounter released;
  const VariantResult streamed = RunVariant(
      "streamed", s,
      {.collect_pods = true,
       .observers = {&released},
       .exact_limit = 10'000,
       .pod_sink = [&](const PodRecord& r) { streamed_names.push_back(r.name); }});
  const RunMetrics& a = kept.metrics;
  const RunMetrics& b = streamed.metrics;
  // Most pods were over long before the end, and were given back then.
  CHECK(released.pods > 90'000);
  CHECK(streamed.pods.size() == kListedPods);  // the sink took them all
  CHECK(b.pods.submitted == 100'000);
  CHECK(b.pods.submitted == a.pods.submitted);
  CHECK(b.pods.completed == a.pods.completed);
  CHECK(b.makespan_s == a.makespan_s);
  CHECK(b.gpu_allocation_ratio == a.gpu_allocation_ratio);
  CHECK(b.mean_run_s == Approx(a.mean_run_s).epsilon(1e-9));
  CHECK(b.gpu_hours == Approx(a.gpu_hours).epsilon(1e-9));
  CHECK(b.unserved.longest_wait_s == a.unserved.longest_wait_s);
  CHECK(b.unserved.pending.mean == Approx(a.unserved.pending.mean).epsilon(1e-9));
  CHECK(b.jobs.completed == a.jobs.completed);
  CHECK(b.jobs.completion.max_s == a.jobs.completion.max_s);
  CheckPercentiles(b.queueing, a.queueing, kSketchRelativeError);
  CHECK(a.queueing.relative_error == 0);  // the default limit keeps 100,000 values
  // Every pod is listed once (in the order blocks were over: here PodId order, as the
  // queue is first in, first out within each class).
  REQUIRE(streamed_names.size() == kept_names.size());
  std::sort(kept_names.begin(), kept_names.end());
  std::sort(streamed_names.begin(), streamed_names.end());
  CHECK(streamed_names == kept_names);
}

}  // namespace migsim
