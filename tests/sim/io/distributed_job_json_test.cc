// Workloads of kind DistributedJob: fields, defaults, and gangs the cluster can never hold
// (they load; workloads/gang_fit.h says why they will stay pending).

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <variant>

#include "tests/support/scenario_text.h"
#include "workloads/gang_fit.h"

namespace migsim {
namespace {

// Two p4d.24xlarge (8 GPUs each) in placement group "pg-a", one in "pg-b", and a job `j`
// of the given members beside kind and template (8 GPUs a worker unless `resources`).
std::string Doc(const std::string& members,
                const std::string& resources = R"({"nvidia.com/gpu": 8})") {
  return R"({"name": "t", "description": "d",
    "cluster": {"nodes": {
      "a": {"type": "p4d.24xlarge", "count": 2, "labels": {"example.com/pg": "pg-a"}},
      "b": {"type": "p4d.24xlarge", "labels": {"example.com/pg": "pg-b"}}}},
    "job_classes": {"train": {"run_s": 100}},
    "workloads": {"j": {"kind": "DistributedJob", )" +
         members + R"(, "template": {"job_class": "train", "resources": )" + resources + "}}}}";
}

}  // namespace

TEST_CASE("a DistributedJob loads with its defaults and a gang template", "[io][gang]") {
  const Scenario s = test::LoadFirstVariant(Doc(R"("workers": 3)"));
  REQUIRE(s.workloads.size() == 1);
  const auto& job = std::get<DistributedJobSpec>(s.workloads[0]);
  CHECK(job.name == "j");
  CHECK(job.workers == 3);
  CHECK(job.at == SimTime::Zero());
  CHECK(job.one_per_node);
  CHECK(job.topology_key.empty());
  CHECK(job.schedule_timeout == SimTime::Seconds(60));
  CHECK(job.backoff_limit == 6);
  CHECK(s.templates[job.tmpl.value()].gang);

  const Scenario t = test::LoadFirstVariant(Doc(
      R"("workers": 2, "at_s": 5, "one_per_node": false, "topology_key": "example.com/pg",
         "schedule_timeout_s": 30, "backoff_limit": 0)"));
  const auto& other = std::get<DistributedJobSpec>(t.workloads[0]);
  CHECK(other.at == SimTime::Seconds(5));
  CHECK_FALSE(other.one_per_node);
  CHECK(other.topology_key == "example.com/pg");
  CHECK(other.schedule_timeout == SimTime::Seconds(30));
  CHECK(other.backoff_limit == 0);
}

TEST_CASE("a DistributedJob's fields are checked", "[io][gang]") {
  CHECK(test::LoadError(Doc(R"("count": 2)")) ==
        "t.json:/workloads/j/count: unknown field 'count' (expected one of: kind, namespace, "
        "at_s, workers, template, one_per_node, topology_key, schedule_timeout_s, "
        "backoff_limit, queue_name)");
  CHECK(test::LoadError(Doc(R"("at_s": 1)")) ==
        "t.json:/workloads/j: missing required field 'workers'");
  CHECK(test::LoadError(Doc(R"("workers": 0)")) == "t.json:/workloads/j/workers: must be >= 1");
  CHECK(test::LoadError(Doc(R"("workers": 1.5)")) ==
        "t.json:/workloads/j/workers: expected an integer, got 1.5");
  CHECK(test::LoadError(Doc(R"("workers": 1, "one_per_node": "yes")")) ==
        "t.json:/workloads/j/one_per_node: expected a boolean, got a string");
  CHECK(test::LoadError(Doc(R"("workers": 1, "topology_key": "")")) ==
        "t.json:/workloads/j/topology_key: must not be empty");
  CHECK(test::LoadError(Doc(R"("workers": 1, "schedule_timeout_s": -1)")) ==
        "t.json:/workloads/j/schedule_timeout_s: must be >= 0");
  CHECK(test::LoadError(Doc(R"("workers": 1, "backoff_limit": 1001)")) ==
        "t.json:/workloads/j/backoff_limit: must be <= 1000");
}

// What GangNeverFits says of the scenario's one DistributedJob: "field: message", or "".
std::string NeverFits(const std::string& doc) {
  const Scenario s = test::LoadFirstVariant(doc);
  const auto& job = std::get<DistributedJobSpec>(s.workloads.at(0));
  const std::optional<GangFitProblem> problem =
      GangNeverFits(s, job.tmpl, job.workers, job.one_per_node, job.topology_key);
  return problem ? problem->field + ": " + problem->message : "";
}

TEST_CASE("a gang the cluster can never hold loads, and says why it will stay pending",
          "[io][gang]") {
  // The coscheduling plugin leaves such a PodGroup pending and schedules the others: the
  // scenario loads (no error), and `validate` and `run` warn with these reasons.
  SECTION("more workers than nodes, one per node") {
    CHECK(NeverFits(Doc(R"("workers": 4)", R"({"nvidia.com/gpu": 2})")) ==
          "workers: 4 workers, one per node, but only 3 nodes can hold one");
  }
  SECTION("more GPUs than the cluster has") {
    CHECK(NeverFits(Doc(R"("workers": 4)")) ==
          "workers: 4 workers x 8 nvidia.com/gpu = 32 nvidia.com/gpu, more than the cluster's "
          "24");
  }
  SECTION("a worker no node can hold") {
    CHECK(NeverFits(Doc(R"("workers": 1)", R"({"nvidia.com/gpu": 9})")) ==
          "template: no node can hold one worker");
  }
  SECTION("more workers than one domain of the topology key holds") {
    CHECK(NeverFits(Doc(R"("workers": 3, "topology_key": "example.com/pg")")) ==
          "workers: 3 workers, one per node, but at most 2 nodes sharing a value of label "
          "'example.com/pg' can hold one");
  }
  SECTION("a topology key no node has") {
    CHECK(NeverFits(Doc(R"("workers": 2, "topology_key": "example.com/rack")")) ==
          "topology_key: no node has the label 'example.com/rack'");
  }
  SECTION("more workers than the nodes hold, several per node") {
    CHECK(NeverFits(Doc(R"("workers": 7, "one_per_node": false)", R"({"nvidia.com/gpu": 3})")) ==
          "workers: 7 workers, but the nodes hold at most 6 of them");
  }
  SECTION("the same gangs fit when the cluster can hold them") {
    CHECK(NeverFits(Doc(R"("workers": 3)", R"({"nvidia.com/gpu": 2})")).empty());
    CHECK(NeverFits(Doc(R"("workers": 2, "topology_key": "example.com/pg")")).empty());
    CHECK(NeverFits(Doc(R"("workers": 6, "one_per_node": false)", R"({"nvidia.com/gpu": 3})"))
              .empty());
  }
}

}  // namespace migsim
