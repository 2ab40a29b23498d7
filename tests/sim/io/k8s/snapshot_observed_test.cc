// `migsim import`'s observed figures without telemetry: a Job's status times stand for a run
// time no pod gives; finished pods' terminated times are checked and located.

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "sim/io/k8s/snapshot_import.h"

namespace migsim::k8s {
namespace {

const std::string kNode =
    R"({"kind": "List", "items": [{"kind": "Node", "metadata": {"name": "n1", "labels": )"
    R"({"node.kubernetes.io/instance-type": "m5.2xlarge"}}, "status": {"allocatable": )"
    R"({"cpu": "7910m", "memory": "31369692Ki"}}}]})";

// A pod of Job "etl" in `phase`, with `status` members after the phase.
std::string JobPod(const std::string& name, const std::string& phase, const std::string& status) {
  return R"({"kind": "Pod", "metadata": {"name": ")" + name +
         R"(", "creationTimestamp": "2025-11-27T00:00:00Z", "ownerReferences": [{"kind": "Job", )"
         R"("name": "etl", "controller": true}]}, "spec": {"restartPolicy": "Never", )"
         R"("containers": [{"name": "c", "image": "i", "resources": {"requests": {"cpu": "1"}}}]}, )"
         R"("status": {"phase": ")" + phase + "\"" + status + "}}";
}

std::string List(const std::string& items) {
  return R"({"kind": "List", "items": [)" + items + "]}";
}

Result<SnapshotScenario> Import(const std::string& pods, const std::string& jobs) {
  SnapshotOptions options;
  options.jobs_text = jobs;
  options.jobs_label = jobs.empty() ? "" : "jobs.json";
  return ImportSnapshot(kNode, "nodes.json", pods, "pods.json", options);
}

}  // namespace

TEST_CASE("a Job's startTime and completionTime give its run time when no pod does",
          "[k8s][snapshot][telemetry]") {
  const std::string jobs = List(
      R"({"kind": "Job", "metadata": {"name": "etl"}, "status": {"startTime": )"
      R"("2025-11-27T00:00:00Z", "completionTime": "2025-11-27T00:20:00Z"}})");
  Result<SnapshotScenario> s = Import(List(JobPod("etl-a", "Running", "")), jobs);
  INFO((s.ok() ? "" : s.status().ToString()));
  REQUIRE(s.ok());
  const nlohmann::json scenario = nlohmann::json::parse(s.value().json);
  CHECK(scenario["job_classes"]["etl"]["run_s"] == 1200.0);
  bool said = false;
  for (const std::string& n : s.value().notices) {
    said = said || n.find("default/Job/etl: 0 pods observed (0 in telemetry, 0 with a run time); "
                          "run time: 1200 s (jobs: the Job's completionTime - startTime") == 0;
    CHECK(n.find("placeholder run time of") == std::string::npos);  // not a placeholder now
  }
  CHECK(said);
  // Without the Jobs file the same pod runs the placeholder, and the report says so.
  Result<SnapshotScenario> alone = Import(List(JobPod("etl-a", "Running", "")), "");
  REQUIRE(alone.ok());
  CHECK(nlohmann::json::parse(alone.value().json)["job_classes"]["etl"]["run_s"] == 3600.0);
}

TEST_CASE("a finished pod's run is its containers' terminated times, replayed",
          "[k8s][snapshot][telemetry]") {
  const std::string done = JobPod(
      "etl-b", "Succeeded",
      R"(, "containerStatuses": [{"name": "c", "state": {"terminated": {"reason": "Completed", )"
      R"("startedAt": "2025-11-27T00:00:30Z", "finishedAt": "2025-11-27T00:10:30Z"}}}])");
  Result<SnapshotScenario> s = Import(List(JobPod("etl-a", "Running", "") + ", " + done), "");
  INFO((s.ok() ? "" : s.status().ToString()));
  REQUIRE(s.ok());
  const nlohmann::json scenario = nlohmann::json::parse(s.value().json);
  CHECK(scenario["job_classes"]["etl"]["run_s"] == 600.0);
  const nlohmann::json& replay = scenario["workloads"]["etl/observed"];
  CHECK(replay["kind"] == "Trace");
  CHECK(replay["pods"] == nlohmann::json::parse(
                              R"([{"at_s": 0.0, "template": "etl", "run_s": 600.0, "name": "etl-b"}])"));
  CHECK(replay["templates"]["etl"]["job_class"] == "etl");
}

TEST_CASE("bad terminated times are errors at the pod's path", "[k8s][snapshot][telemetry]") {
  auto error = [](const std::string& started, const std::string& finished) {
    const std::string pod = JobPod(
        "etl-b", "Failed",
        R"(, "containerStatuses": [{"name": "c", "state": {"terminated": {"reason": "Error", )"
        R"("startedAt": ")" + started + R"(", "finishedAt": ")" + finished + R"("}}}])");
    Result<SnapshotScenario> s = Import(List(pod), "");
    REQUIRE_FALSE(s.ok());
    return s.status().ToString();
  };
  CHECK(error("2025-11-27T00:00:30Z", "later") ==
        "pods.json: document 1: items[0].status.containerStatuses[0].state.terminated.finishedAt "
        "(line 1): expected an RFC 3339 time such as 2025-11-27T00:02:00Z, got 'later'");
  CHECK(error("2025-11-27T00:10:30Z", "2025-11-27T00:00:30Z") ==
        "pods.json: document 1: items[0].status.containerStatuses[0].state.terminated.finishedAt "
        "(line 1): the container finished before it started (startedAt 2025-11-27T00:10:30Z)");
}

}  // namespace migsim::k8s
