// Gangs on autoscaled node groups (issue 15): a gang's pods are unschedulable pods to the
// Cluster Autoscaler and to Karpenter, which grow the cluster for what the nodes as they
// are cannot hold, honouring one worker per node and the gang's topology.
#include <catch2/catch.hpp>
#include <string>

#include "sim/engine/engine.h"
#include "tests/support/tiny_world.h"
#include "tests/support/node_groups_of.h"

namespace migsim {
namespace {

using test::NodeGroupsOf;

// Autoscaled pools of p3.8xlarge nodes (4 V100 each) given by `pools` ("name": fields),
// under `provisioner` ("autoscaler" or "karpenter"), with a DistributedJob "train" of
// `workers` pods of `gpus` GPUs each and `job` more of its fields.
std::string Doc(const std::string& provisioner, const std::string& pools, int workers, int gpus,
                const std::string& job = "") {
  return R"({"name": "t", "description": "d",
    "cluster": {")" + provisioner + R"(": {}, "nodes": {)" + pools + R"(}},
    "job_classes": {"run": {"run_s": 100}},
    "workloads": {"train": {"kind": "DistributedJob", "workers": )" + std::to_string(workers) +
         job + R"(, "template": {"job_class": "run", "resources": {"nvidia.com/gpu": )" +
         std::to_string(gpus) + "}}}}}";
}

std::string Pool(const std::string& name, const std::string& autoscaling,
                 const std::string& labels = "{}") {
  return "\"" + name + R"(": {"type": "p3.8xlarge", "labels": )" + labels +
         R"(, "autoscaling": )" + autoscaling + "}";
}

const char* const kProvisioners[] = {"autoscaler", "karpenter"};

uint32_t Launched(const test::TextRun& run, size_t group) {
  return NodeGroupsOf(*run.engine).counters()[group].nodes_launched;
}

void CheckAllBoundTogether(const Engine& e) {
  REQUIRE_FALSE(e.pods().empty());
  for (const Pod& pod : e.pods()) {
    CHECK(pod.phase == PodPhase::kSucceeded);
    CHECK(pod.bound == e.pods().front().bound);
  }
}

}  // namespace

TEST_CASE("a gang on an empty node group makes the provisioner launch a node per worker",
          "[engine][autoscaling][gang]") {
  for (const char* provisioner : kProvisioners) {
    INFO(provisioner);
    const test::TextRun run = test::RunFirstVariant(
        Doc(provisioner, Pool("g", R"({"max": 5, "provisioning_s": 60})"), 3, 4));
    CheckAllBoundTogether(*run.engine);
    CHECK(Launched(run, 0) == 3);
  }
}

TEST_CASE("a gang asks new nodes only for the workers the nodes as they are cannot hold",
          "[engine][autoscaling][gang]") {
  // One node is up at the start: one worker fits it, two more nodes are launched.
  for (const char* provisioner : kProvisioners) {
    INFO(provisioner);
    const test::TextRun run = test::RunFirstVariant(
        Doc(provisioner, Pool("g", R"({"max": 5, "initial": 1, "provisioning_s": 60})"), 3, 4));
    CheckAllBoundTogether(*run.engine);
    CHECK(Launched(run, 0) == 2);
  }
}

TEST_CASE("a gang of small workers, one per node, gets a node per worker, without the rule one",
          "[engine][autoscaling][gang]") {
  for (const char* provisioner : kProvisioners) {
    INFO(provisioner);
    const std::string pool = Pool("g", R"({"max": 5, "provisioning_s": 60})");
    const test::TextRun spread = test::RunFirstVariant(Doc(provisioner, pool, 3, 1));
    CheckAllBoundTogether(*spread.engine);
    CHECK(Launched(spread, 0) == 3);
    const test::TextRun packed =
        test::RunFirstVariant(Doc(provisioner, pool, 3, 1, R"(, "one_per_node": false)"));
    CheckAllBoundTogether(*packed.engine);
    CHECK(Launched(packed, 0) == 1);
  }
}

TEST_CASE("a gang with a topology key gets all its new nodes in one group's domain",
          "[engine][autoscaling][gang]") {
  // Zone a has one node up, with room for one worker, and cannot grow: the gang, which must
  // go whole into one zone, gets three new nodes in zone b rather than two beside zone a's.
  for (const char* provisioner : kProvisioners) {
    INFO(provisioner);
    const std::string pools =
        Pool("a", R"({"max": 1, "initial": 1, "provisioning_s": 60})", R"({"zone": "a"})") +
        ", " + Pool("b", R"({"max": 3, "provisioning_s": 60})", R"({"zone": "b"})");
    const test::TextRun run =
        test::RunFirstVariant(Doc(provisioner, pools, 3, 4, R"(, "topology_key": "zone")"));
    const Engine& e = *run.engine;
    CheckAllBoundTogether(e);
    for (const Pod& pod : e.pods()) CHECK(e.nodes()[pod.node.value()].name.substr(0, 2) == "b-");
    CHECK(Launched(run, 0) == 0);
    CHECK(Launched(run, 1) == 3);
  }
}

}  // namespace migsim
