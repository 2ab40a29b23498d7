// The `kueue` section and `queue_name`: what loads, and every refusal at its pointer.

#include <catch2/catch.hpp>
#include <string>

#include "sim/io/scenario_json.h"

namespace migsim {
namespace {

// A ClusterQueue `team` (cohort `cohort` unless empty) with one flavor `p4d` of 8 GPUs and
// `quota_extra` spliced into its GPU quota.
std::string Queue(const std::string& quota_extra = "", const std::string& cohort = "research",
                  const std::string& extra = "") {
  return R"({"cohort": ")" + cohort +
         R"(", "resourceGroups": [{"coveredResources": ["cpu", "nvidia.com/gpu"],
      "flavors": [{"name": "p4d", "resources": [{"name": "cpu", "nominalQuota": 96},
        {"name": "nvidia.com/gpu", "nominalQuota": 8)" +
         quota_extra + "}]}]}]" + extra + "}";
}

std::string Kueue(const std::string& queues, const std::string& local = "") {
  return R"({"resourceFlavors": {"p4d": {"nodeLabels": {"node.kubernetes.io/instance-type": "p4d.24xlarge"}}},
    "clusterQueues": )" +
         queues + R"(, "localQueues": {"q": {"namespace": "ml", "clusterQueue": "team"})" + local +
         "}}";
}

std::string Doc(const std::string& kueue, const std::string& job = "") {
  return R"({"name": "t", "description": "d",
    "cluster": {"nodes": {"a": {"type": "p4d.24xlarge"}}},
    "job_classes": {"train": {"run_s": 10}},
    "kueue": )" +
         kueue + R"(,
    "workloads": {"j": {"kind": "Job", "namespace": "ml", "queue_name": "q", "parallelism": 2,
      "completions": 4, "template": {"job_class": "train",
      "resources": {"cpu": 4, "nvidia.com/gpu": 4)" +
         job + "}}}}}";
}

std::string Valid() { return Doc(Kueue(R"({"team": )" + Queue() + "}")); }

// `text` with the first `from` replaced by `to`. REQUIRES: `from` occurs.
std::string Replace(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

std::string MessageOf(const std::string& text) {
  Result<ScenarioFile> loaded = ParseScenarioText(text, "t.json");
  REQUIRE_FALSE(loaded.ok());
  return loaded.status().ToString();
}

}  // namespace

TEST_CASE("a kueue section loads its flavors, queues and the managed Job", "[io][kueue]") {
  Result<ScenarioFile> loaded = ParseScenarioText(Valid(), "t.json");
  REQUIRE(loaded.ok());
  const Scenario& s = loaded.value().variants[0].second;
  REQUIRE(s.kueue.has_value());
  CHECK(s.kueue->resources == std::vector<std::string>{"cpu", "nvidia.com/gpu"});
  REQUIRE(s.kueue->cluster_queues.size() == 1);
  const ClusterQueueSpec& cq = s.kueue->cluster_queues[0];
  CHECK(cq.cohort == "research");
  CHECK(cq.strategy == QueueingStrategy::kBestEffortFifo);
  CHECK(cq.within_cluster_queue == WithinClusterQueue::kNever);
  CHECK(cq.reclaim_within_cohort == ReclaimWithinCohort::kNever);
  CHECK(cq.groups[0].flavors[0].quotas[0].nominal == 96000);  // millicores
  CHECK(cq.groups[0].flavors[0].quotas[1].nominal == 8);
  CHECK(std::get<JobSpec>(s.workloads[0]).local_queue == 0);
  // The Job's template and its copy for flavor p4d, which selects the flavor's nodes.
  REQUIRE(s.kueue->flavored_templates.size() == 1);
  const PodTemplate& flavored = s.templates[s.kueue->flavored_templates[0].tmpl.value()];
  CHECK(flavored.node_selector == Labels{{"node.kubernetes.io/instance-type", "p4d.24xlarge"}});
  CHECK(flavored.namespace_index == s.templates[0].namespace_index);
}

TEST_CASE("Kueue's enums and limits are read by their Kueue names", "[io][kueue]") {
  const std::string queue =
      Queue(R"(, "borrowingLimit": 4, "lendingLimit": 2)", "research",
            R"(, "queueingStrategy": "StrictFIFO", "fairSharing": {"weight": 2},
               "preemption": {"withinClusterQueue": "LowerOrNewerEqualPriority", "reclaimWithinCohort": "Any"})");
  Result<ScenarioFile> loaded =
      ParseScenarioText(Doc(Kueue(R"({"team": )" + queue + "}")), "t.json");
  REQUIRE(loaded.ok());
  const ClusterQueueSpec& cq = loaded.value().variants[0].second.kueue->cluster_queues[0];
  CHECK(cq.strategy == QueueingStrategy::kStrictFifo);
  CHECK(cq.within_cluster_queue == WithinClusterQueue::kLowerOrNewerEqualPriority);
  CHECK(cq.reclaim_within_cohort == ReclaimWithinCohort::kAny);
  CHECK(cq.fair_sharing_weight == 2);
  CHECK(cq.groups[0].flavors[0].quotas[1].borrowing_limit == 4);
  CHECK(cq.groups[0].flavors[0].quotas[1].lending_limit == 2);
}

TEST_CASE("bad kueue input is refused at its pointer", "[io][kueue]") {
  auto with_queue = [](const std::string& queue) {
    return Doc(Kueue(R"({"team": )" + queue + "}"));
  };
  SECTION("an unknown flavor") {
    std::string q = Queue();
    q = Replace(q, "\"p4d\"", "\"p5\"");
    CHECK(MessageOf(with_queue(q)) ==
          "t.json:/kueue/clusterQueues/team/resourceGroups/0/flavors/0/name: unknown "
          "ResourceFlavor 'p5' (valid: p4d)");
  }
  SECTION("an unknown cluster queue") {
    CHECK(MessageOf(
              Doc(Kueue(R"({"team": )" + Queue() + "}", R"(, "r": {"clusterQueue": "tema"})"))) ==
          "t.json:/kueue/localQueues/r/clusterQueue: unknown ClusterQueue 'tema' (valid: team)");
  }
  SECTION("an unknown queue_name") {
    std::string doc = Valid();
    doc = Replace(doc, "\"queue_name\": \"q\"", "\"queue_name\": \"qq\"");
    CHECK(MessageOf(doc) ==
          "t.json:/workloads/j/queue_name: unknown LocalQueue 'qq' (valid: q) "
          "in namespace 'ml'");
  }
  SECTION("a queue_name of another namespace") {
    std::string doc = Valid();
    doc = Replace(doc, "\"namespace\": \"ml\", \"queue", "\"namespace\": \"cv\", \"queue");
    CHECK(MessageOf(doc) ==
          "t.json:/workloads/j/queue_name: unknown LocalQueue 'q' (none is "
          "defined) in namespace 'cv'");
  }
  SECTION("a LocalQueue in a namespace its ClusterQueue does not select") {
    CHECK(MessageOf(with_queue(Queue("", "research", R"(, "namespaces": ["cv"])"))) ==
          "t.json:/kueue/localQueues/q/clusterQueue: ClusterQueue 'team' does not select "
          "namespace 'ml' (its namespaces)");
  }
  SECTION("a queue_name without a kueue section") {
    const std::string doc = R"({"name": "t", "description": "d",
      "cluster": {"nodes": {"a": {"type": "p4d.24xlarge"}}},
      "job_classes": {"train": {"run_s": 10}},
      "workloads": {"j": {"kind": "Job", "queue_name": "q", "template": {"job_class": "train"}}}})";
    CHECK(MessageOf(doc) ==
          "t.json:/workloads/j/queue_name: queue_name 'q': the scenario has no kueue section");
  }
  SECTION("a quota on a resource no node offers") {
    std::string q = Queue();
    q = Replace(q, "\"nvidia.com/gpu\"", "\"nvidia.com/gpus\"");
    q = Replace(q, "\"nvidia.com/gpu\"", "\"nvidia.com/gpus\"");
    CHECK(MessageOf(with_queue(q)) ==
          "t.json:/kueue/clusterQueues/team/resourceGroups/0/flavors/0/resources/1: no node of "
          "flavor 'p4d' offers nvidia.com/gpus: the quota could never be used");
  }
  SECTION("negative quotas") {
    CHECK(MessageOf(with_queue(Queue(", \"borrowingLimit\": -1"))) ==
          "t.json:/kueue/clusterQueues/team/resourceGroups/0/flavors/0/resources/1/"
          "borrowingLimit: must be >= 0");
    std::string q = Queue();
    q = Replace(q, "\"nominalQuota\": 8", "\"nominalQuota\": -8");
    CHECK(MessageOf(with_queue(q)) ==
          "t.json:/kueue/clusterQueues/team/resourceGroups/0/flavors/0/resources/1/nominalQuota: "
          "must be >= 0");
  }
  SECTION("borrowingLimit or lendingLimit without a cohort") {
    CHECK(MessageOf(with_queue(Queue(", \"borrowingLimit\": 2", ""))) ==
          "t.json:/kueue/clusterQueues/team/resourceGroups/0/flavors/0/resources/1/"
          "borrowingLimit: borrowingLimit needs a cohort: without one there is no queue to "
          "borrow from or lend to");
    CHECK(MessageOf(with_queue(Queue(", \"lendingLimit\": 9"))) ==
          "t.json:/kueue/clusterQueues/team/resourceGroups/0/flavors/0/resources/1/"
          "lendingLimit: must be <= nominalQuota (8)");
  }
  SECTION("flavor resources that are not the covered ones") {
    std::string q = Queue();
    q = Replace(q, "{\"name\": \"cpu\", \"nominalQuota\": 96},", "");
    CHECK(MessageOf(with_queue(q)) ==
          "t.json:/kueue/clusterQueues/team/resourceGroups/0/flavors/0/resources: must list the "
          "group's coveredResources in order: cpu, nvidia.com/gpu");
  }
  SECTION("an unknown strategy") {
    CHECK(MessageOf(with_queue(Queue("", "research", R"(, "queueingStrategy": "FIFO")"))) ==
          "t.json:/kueue/clusterQueues/team/queueingStrategy: unknown queueingStrategy 'FIFO' "
          "(valid: BestEffortFIFO, StrictFIFO)");
  }
  SECTION("a request beyond any quota the queue could ever have") {
    std::string doc = Doc(Kueue(R"({"team": )" + Queue("", "") + "}"));
    doc = Replace(doc, "\"parallelism\": 2", "\"parallelism\": 3");
    CHECK(MessageOf(doc) ==
          "t.json:/workloads/j: ClusterQueue 'team' could never admit this workload (3 pods at "
          "once): it asks for 12 nvidia.com/gpu, more than it could ever hold in one flavor (at "
          "most 8)");
  }
  SECTION("a request for a resource the queue does not cover") {
    CHECK(MessageOf(Doc(Kueue(R"({"team": )" + Queue() + "}"), R"(, "memory": "1Gi")")) ==
          "t.json:/workloads/j: ClusterQueue 'team' could never admit this workload (2 pods at "
          "once): it asks for memory, which it does not cover (coveredResources: cpu, "
          "nvidia.com/gpu)");
  }
  SECTION("queue_name on a kind Kueue does not manage (bare pods stay unmanaged)") {
    std::string doc = Valid();
    doc = Replace(doc, "\"kind\": \"Job\"", "\"kind\": \"Pod\"");
    CHECK(MessageOf(doc) ==
          "t.json:/workloads/j/queue_name: unknown field 'queue_name' (expected one of: kind, "
          "namespace, at_s, count, template)");
  }
}

}  // namespace migsim
