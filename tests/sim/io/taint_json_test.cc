// A node pool's `taints` and a pod template's `tolerations`, read and honoured by the run.

#include <catch2/catch.hpp>
#include <string>

#include "policies/first_fit.h"
#include "sim/io/scenario_json.h"
#include "tests/support/scenario_text.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

// One p3.8xlarge (4 V100s) tainted `taints`, and 2 one-GPU pods with `tolerations`.
std::string Doc(const std::string& taints, const std::string& tolerations) {
  return R"({"name": "t", "description": "d",
    "cluster": {"nodes": {"gpu": {"type": "p3.8xlarge", "taints": )" +
         taints + R"(}}},
    "job_classes": {"train": {"run_s": 10}},
    "workloads": {"w": {"kind": "Pod", "count": 2, "template": {"job_class": "train",
      "resources": {"nvidia.com/gpu": 1}, "tolerations": )" +
         tolerations + "}}}}";
}

const std::string kGpuTaint = R"([{"key": "nvidia.com/gpu", "effect": "NoSchedule"}])";

int SucceededPods(const std::string& text) {
  const Scenario s = test::LoadFirstVariant(text);
  FirstFitPolicy policy;
  auto engine = test::RunEngine(s, policy);
  int succeeded = 0;
  for (const Pod& pod : engine->pods()) succeeded += pod.phase == PodPhase::kSucceeded;
  return succeeded;
}

}  // namespace

TEST_CASE("taints and tolerations are read as Kubernetes writes them", "[io][taint]") {
  const Scenario s =
      test::LoadFirstVariant(Doc(R"([{"key": "a", "value": "x", "effect": "NoExecute"}])",
                                 R"([{"key": "a", "operator": "Exists"}, {"key": "b", "value": "y",
               "effect": "PreferNoSchedule", "tolerationSeconds": 60}])"));
  REQUIRE(s.cluster.nodes.front().taints.size() == 1);
  CHECK(s.cluster.nodes.front().taints.front() ==
        Taint{.key = "a", .value = "x", .effect = TaintEffect::kNoExecute});
  const Tolerations& t = s.templates.front().tolerations;
  REQUIRE(t.size() == 2);
  CHECK(t[0] ==
        Toleration{.key = "a", .op = TolerationOperator::kExists, .value = "", .effect = {}});
  CHECK(t[1] == Toleration{.key = "b",
                           .op = TolerationOperator::kEqual,
                           .value = "y",
                           .effect = TaintEffect::kPreferNoSchedule});
}

TEST_CASE("pods that do not tolerate a pool's NoSchedule taint never run there", "[io][taint]") {
  CHECK(SucceededPods(Doc(kGpuTaint, "[]")) == 0);
  CHECK(SucceededPods(Doc(kGpuTaint, R"([{"key": "nvidia.com/gpu", "operator": "Exists",
                                         "effect": "NoSchedule"}])")) == 2);
  CHECK(SucceededPods(Doc(R"([{"key": "soft", "effect": "PreferNoSchedule"}])", "[]")) == 2);
}

TEST_CASE("bad taints and tolerations are reported at their pointer", "[io][taint]") {
  CHECK(test::LoadError(Doc(R"([{"key": "a", "effect": "NoRun"}])", "[]")) ==
        "t.json:/cluster/nodes/gpu/taints/0/effect: unknown taint effect 'NoRun' (valid: "
        "NoSchedule, PreferNoSchedule, NoExecute)");
  CHECK(test::LoadError(Doc(R"([{"key": "a"}])", "[]")) ==
        "t.json:/cluster/nodes/gpu/taints/0: missing required field 'effect'");
  CHECK(test::LoadError(Doc("[]", R"([{"value": "x"}])")) ==
        "t.json:/workloads/w/template/tolerations/0: operator must be Exists when key is empty "
        "(a toleration of every taint)");
  CHECK(test::LoadError(Doc("[]", R"([{"key": "a", "operator": "In"}])")) ==
        "t.json:/workloads/w/template/tolerations/0/operator: unknown toleration operator 'In' "
        "(valid: Equal, Exists)");
}

}  // namespace migsim
