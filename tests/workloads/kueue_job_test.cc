// Jobs managed by Kueue, run by the engine: suspended until admitted, pods on the flavor's
// nodes, evicted and requeued without a failure, quota released when they finish.

#include <catch2/catch.hpp>
#include <string>

#include "sim/io/scenario_json.h"
#include "sim/report/run_report.h"
#include "sim/study/run.h"

namespace migsim {
namespace {

// Two p4d nodes, one labelled pool=reserved; flavor `reserved` selects it. Queue `a` (4 GPUs)
// and queue `b` (4 GPUs, `b_extra` spliced in) in one cohort; `workloads` as given.
std::string Doc(const std::string& workloads, const std::string& b_extra = "") {
  const std::string queue =
      R"({"cohort": "c", "resourceGroups": [{"coveredResources": ["nvidia.com/gpu"],
      "flavors": [{"name": "reserved", "resources": [{"name": "nvidia.com/gpu", "nominalQuota": 4}]}]}])";
  return R"({"name": "t", "description": "d",
    "cluster": {"nodes": {"free": {"type": "p4d.24xlarge"},
                          "res": {"type": "p4d.24xlarge", "labels": {"pool": "reserved"}}}},
    "job_classes": {"train": {"run_s": 100}},
    "kueue": {"resourceFlavors": {"reserved": {"nodeLabels": {"pool": "reserved"}}},
      "clusterQueues": {"a": )" +
         queue + "}, \"b\": " + queue + b_extra + R"(}},
      "localQueues": {"qa": {"clusterQueue": "a"}, "qb": {"clusterQueue": "b"}}},
    "workloads": )" +
         workloads + "}";
}

std::string JobIn(const std::string& queue, double at, int gpus, int parallelism = 1) {
  return R"({"kind": "Job", "queue_name": ")" + queue + R"(", "at_s": )" + std::to_string(at) +
         R"(, "parallelism": )" + std::to_string(parallelism) + R"(, "completions": )" +
         std::to_string(parallelism) + R"(, "template": {"job_class": "train",
         "resources": {"nvidia.com/gpu": )" +
         std::to_string(gpus) + "}}}";
}

VariantResult Run(const std::string& text) {
  Result<ScenarioFile> loaded = ParseScenarioText(text, "t.json");
  REQUIRE(loaded.ok());
  return RunVariant("base", loaded.value().variants[0].second, RunOptions{.collect_pods = true});
}

}  // namespace

TEST_CASE("a managed Job creates its pods only when admitted, on its flavor's nodes",
          "[kueue][workloads]") {
  // Two 2-pod Jobs of 4 GPUs each against a cohort of 8: the second waits for the first.
  const VariantResult r =
      Run(Doc(R"({"one": )" + JobIn("qa", 0, 2, 2) + R"(, "two": )" + JobIn("qa", 1, 3, 2) + "}"));
  REQUIRE(r.pods.size() == 4);
  for (const PodRecord& pod : r.pods) CHECK(pod.node == "res-0");
  CHECK(r.pods[0].created == SimTime::Zero());
  CHECK(r.pods[2].created == SimTime::Seconds(100));  // after "one" released its quota
  CHECK(r.pods[2].name == "two-0");
  const ClusterQueueMetrics& a = r.metrics.cluster_queues[0];
  CHECK(a.admitted == 2);
  CHECK(a.admission.max_s == Approx(99));
  CHECK(a.borrowed_gpus_max == 2);  // "two" holds 6 of a's nominal 4
  CHECK(a.borrowed_gpus_mean == Approx(2.0 * 100 / 200));
  CHECK(r.metrics.cluster_queues[1].admitted == 0);
}

TEST_CASE("a reclaimed Job's pods are deleted gracefully and it runs again without a failure",
          "[kueue][workloads]") {
  const std::string workloads =
      R"({"borrower": )" + JobIn("qa", 0, 8) + R"(, "owner": )" + JobIn("qb", 50, 4) + "}";
  const VariantResult r = Run(Doc(workloads, R"(, "preemption": {"reclaimWithinCohort": "Any"})"));
  REQUIRE(r.pods.size() == 3);
  CHECK(r.pods[0].name == "borrower-0");
  CHECK(r.pods[0].state == "deleted");
  // Evicted at 50 s, it keeps its GPUs for the default 30 s grace period.
  CHECK(*r.pods[0].ended == SimTime::Seconds(80));
  CHECK(r.pods[1].name == "owner-0");
  CHECK(*r.pods[1].bound == SimTime::Seconds(80));
  CHECK(r.pods[2].name == "borrower-1");
  CHECK(r.pods[2].created == SimTime::Seconds(180));  // readmitted once b's quota is free
  CHECK(r.metrics.pods.completed == 2);
  CHECK(r.metrics.pods.failed == 0);
  CHECK(r.metrics.cluster_queues[0].evictions == 1);
  CHECK(r.metrics.cluster_queues[1].admission.max_s == 0);

  const VariantResult waits = Run(Doc(workloads));  // reclaimWithinCohort Never
  CHECK(waits.metrics.cluster_queues[0].evictions == 0);
  CHECK(waits.metrics.cluster_queues[1].admission.max_s == Approx(50));
}

TEST_CASE("a reclaimed Job resumes from its evicted pods' last checkpoint when readmitted",
          "[kueue][workloads]") {
  std::string doc =
      Doc(R"({"borrower": )" + JobIn("qa", 0, 8) + R"(, "owner": )" + JobIn("qb", 50, 4) + "}",
          R"(, "preemption": {"reclaimWithinCohort": "Any"})");
  const std::string plain = R"("train": {"run_s": 100})";
  doc.replace(doc.find(plain), plain.size(),
              R"("train": {"run_s": 100, "checkpoint_interval_s": 20})");
  const VariantResult r = Run(doc);
  REQUIRE(r.pods.size() == 3);
  CHECK(r.pods[2].name == "borrower-1");
  // 50 s run, checkpoints at 20 s and 40 s: 60 s left after its readmission at 180 s.
  CHECK(*r.pods[2].ended == SimTime::Seconds(240));
  // Held 0..80 s, the 40 s up to the checkpoint kept: 8 GPUs x 40 s lost.
  CHECK(r.metrics.gpu_hours_lost_to_preemption == Approx(8 * 40.0 / 3600));
}

TEST_CASE("a workload still queued at the end counts as waiting", "[kueue][workloads]") {
  Result<ScenarioFile> loaded = ParseScenarioText(
      Doc(R"({"long": )" + JobIn("qa", 0, 8) + R"(, "late": )" + JobIn("qa", 1, 2) + "}"),
      "t.json");
  REQUIRE(loaded.ok());
  Scenario s = loaded.value().variants[0].second;
  s.horizon = SimTime::Seconds(50);
  const VariantResult r = RunVariant("base", s);
  CHECK(r.metrics.cluster_queues[0].waiting == 1);
  CHECK(r.metrics.cluster_queues[0].admitted == 1);
  CHECK(r.metrics.pods.submitted == 1);
}

TEST_CASE("the Kueue example runs the same twice", "[kueue][workloads]") {
  Result<ScenarioFile> file =
      LoadScenarioFile(std::string(MIGSIM_SOURCE_DIR) + "/scenarios/kueue-quotas.json");
  REQUIRE(file.ok());
  auto run = [&] {
    RunReport report{&file.value(), {}};
    for (const auto& [name, scenario] : file.value().variants) {
      report.variants.push_back(RunVariant(name, scenario, RunOptions{.collect_pods = true}));
    }
    std::string out = FormatResultsJson(report);
    for (const VariantResult& v : report.variants) out += FormatPodsCsv(v);
    return out;
  };
  const std::string first = run();
  CHECK(first == run());
  CHECK(first.find("\"kueue_cluster_queues\"") != std::string::npos);
}

}  // namespace migsim

namespace migsim {

TEST_CASE("a managed DistributedJob is admitted whole and its gang waits for the quota",
          "[kueue][workloads][gang]") {
  // Queue a's 4 GPUs borrow b's 4: a 2 x 4-GPU gang fits them only once the 1-GPU Job of
  // queue b, admitted first, has finished.
  const std::string gang = R"({"kind": "DistributedJob", "queue_name": "qa", "at_s": 1,
      "workers": 2, "one_per_node": false, "template": {"job_class": "train",
      "resources": {"nvidia.com/gpu": 4}}})";
  const VariantResult r =
      Run(Doc(R"({"small": )" + JobIn("qb", 0, 1) + R"(, "dist": )" + gang + "}"));
  REQUIRE(r.pods.size() == 3);
  CHECK(r.pods[1].created == SimTime::Seconds(100));  // the gang's pods, at admission
  CHECK(r.pods[2].created == SimTime::Seconds(100));
  CHECK(r.pods[1].node == "res-0");  // the flavor's node
  CHECK(r.pods[1].bound == r.pods[2].bound);
  const ClusterQueueMetrics& a = r.metrics.cluster_queues[0];
  CHECK(a.admitted == 1);
  CHECK(a.borrowed_gpus_max == 4);
}

}  // namespace migsim
