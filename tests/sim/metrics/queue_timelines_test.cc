// QueueTimelineRecorder: waiting, admitted and GPUs in use over time per Kueue ClusterQueue
// and per namespace, from the Kueue controller's notices and the pods'.
#include "sim/metrics/queue_timelines.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "sim/io/scenario_json.h"
#include "sim/study/run.h"

namespace migsim {
namespace {

using Change = KueueWorkloadChange;

KueueWorkloadNotice Notice(Change change, int32_t queue, int32_t ns, int64_t pods, int64_t gpus) {
  return {
      .change = change, .cluster_queue = queue, .namespace_index = ns, .pods = pods, .gpus = gpus};
}

StepPoints Steps(std::initializer_list<std::pair<double, double>> points) {
  StepPoints out;
  for (const auto& [s, v] : points) out.emplace_back(SimTime::Seconds(s), v);
  return out;
}

TEST_CASE("Kueue's notices become waiting pods, admitted workloads and GPU quota over time",
          "[metrics][kueue]") {
  QueueTimelineRecorder r({0}, {"team-a", "team-b"}, {"default", "a", "b"});
  r.OnKueueWorkload(SimTime::Zero(), Notice(Change::kQueued, 0, 1, 4, 4));
  r.OnKueueWorkload(SimTime::Zero(), Notice(Change::kAdmitted, 0, 1, 4, 4));
  r.OnKueueWorkload(SimTime::Seconds(600), Notice(Change::kQueued, 1, 2, 2, 8));
  r.OnKueueWorkload(SimTime::Seconds(630), Notice(Change::kEvicted, 0, 1, 4, 4));
  r.OnKueueWorkload(SimTime::Seconds(630), Notice(Change::kAdmitted, 1, 2, 2, 8));
  r.OnKueueWorkload(SimTime::Seconds(900), Notice(Change::kWithdrawn, 0, 1, 4, 4));
  r.OnKueueWorkload(SimTime::Seconds(2430), Notice(Change::kFinished, 1, 2, 2, 8));
  const QueueTimelines& t = r.timelines();
  // Within an instant only its last value counts: queued and admitted at 0 never waited.
  CHECK(t.waiting_for_admission == Steps({{0, 0}, {600, 2}, {630, 4}, {900, 0}}));
  REQUIRE(t.cluster_queues.size() == 2);
  CHECK(t.cluster_queues[0].name == "team-a");
  CHECK(t.cluster_queues[0].waiting == Steps({{0, 0}, {630, 4}, {900, 0}}));
  CHECK(t.cluster_queues[0].admitted == Steps({{0, 1}, {630, 0}}));
  CHECK(t.cluster_queues[0].usage == Steps({{0, 4}, {630, 0}}));
  CHECK(t.cluster_queues[1].usage == Steps({{0, 0}, {630, 8}, {2430, 0}}));
  CHECK(t.cluster_queues[1].pending.empty());  // the scheduler's pending is per namespace
  REQUIRE(t.namespaces.size() == 3);
  CHECK(t.namespaces[2].waiting == Steps({{0, 0}, {600, 2}, {630, 0}}));
  CHECK(t.namespaces[2].admitted == Steps({{0, 0}, {630, 1}, {2430, 0}}));
  CHECK(t.namespaces[2].usage == Steps({{0, 0}}));  // a namespace's GPUs are its pods'
}

TEST_CASE("a run with Kueue records its queues' timelines: A's evicted Jobs wait for B's",
          "[metrics][kueue]") {
  Result<ScenarioFile> file =
      LoadScenarioFile(std::string(MIGSIM_SOURCE_DIR) + "/scenarios/kueue-quotas.json");
  REQUIRE(file.ok());
  const Scenario& reclaim = file.value().variants.at(0).second;
  const VariantResult v = RunVariant("reclaim", reclaim, {.collect_timeline = true});
  REQUIRE(v.queues.has_value());
  REQUIRE(v.queues->cluster_queues.size() == 2);
  const QueueTimeline& a = v.queues->cluster_queues[0];
  const QueueTimeline& b = v.queues->cluster_queues[1];
  CHECK(a.name == "team-a");
  // B's two Jobs (one pod each) are admitted as they come at 600 s, evicting A's two
  // borrowers, which wait (a pod each) until B's are done, about 30 min later.
  CHECK(b.waiting == Steps({{0, 0}}));
  CHECK(a.waiting == Steps({{0, 0}, {600, 1}, {601, 2}, {2460, 1}, {2461, 0}}));
  CHECK(v.queues->waiting_for_admission == a.waiting);
  double peak_quota = 0;
  for (const auto& [at, gpus] : a.usage) peak_quota = std::max(peak_quota, gpus);
  CHECK(peak_quota == 16);  // its 8 and the 8 it borrows from team-b
  // Without the timeline collected, nothing is kept.
  CHECK_FALSE(RunVariant("reclaim", reclaim, {}).queues.has_value());
}

}  // namespace
}  // namespace migsim
