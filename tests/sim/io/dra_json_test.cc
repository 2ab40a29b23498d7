// DRA in scenarios: a pool's `dra`, `device_classes` and templates' `resource_claims`,
// read, refused with their pointers, and honoured by the run.

#include <catch2/catch.hpp>
#include <string>

#include "policies/first_fit.h"
#include "sim/io/scenario_json.h"
#include "tests/support/scenario_text.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

const std::string kProfile1g = R"("device.attributes[\"gpu.nvidia.com\"].profile == \"1g.5gb\"")";

// One p4d.24xlarge with `dra`, and `count` pods of a 10 s class with `claims`.
std::string Doc(const std::string& dra, const std::string& claims, int count = 1,
                const std::string& extra = "") {
  return R"({"name": "t", "description": "d", )" + extra +
         R"("cluster": {"nodes": {"p4d": {"type": "p4d.24xlarge", "dra": )" + dra + R"(}}},
    "job_classes": {"c": {"run_s": 10}},
    "workloads": {"w": {"kind": "Pod", "count": )" +
         std::to_string(count) + R"(, "template": {"job_class": "c", "resource_claims": )" +
         claims + "}}}}";
}

std::string Exactly(const std::string& device_class, const std::string& selectors) {
  return R"([{"name": "c", "requests": [{"name": "r", "exactly": {"deviceClassName": ")" +
         device_class + R"(", "selectors": [)" + selectors + "]}}]}]";
}

std::unique_ptr<Engine> Run(const Scenario& s, FirstFitPolicy& policy) {
  return test::RunEngine(s, policy);
}

}  // namespace

TEST_CASE("DRA pools, classes and claims are read as the API writes them", "[io][dra]") {
  const Scenario s = test::LoadFirstVariant(Doc(
      R"({"dynamic_mig": true, "mig_create_s": 2})", Exactly("mig.nvidia.com", kProfile1g), 1,
      R"("device_classes": {"small": {"selectors": [{"cel": {"expression": "device.driver == \"gpu.nvidia.com\""}}]}},)"));
  REQUIRE(s.cluster.nodes.front().dra);
  CHECK(s.cluster.nodes.front().dra->dynamic_mig);
  CHECK(s.cluster.nodes.front().dra->mig_create == SimTime::Seconds(2));
  REQUIRE(s.device_classes.size() == 3);
  CHECK(s.device_classes[2].name == "small");
  const std::vector<dra::ResourceClaim>& claims = s.templates.front().resource_claims;
  REQUIRE(claims.size() == 1);
  REQUIRE(claims[0].requests.size() == 1);
  CHECK(claims[0].requests[0].alternatives[0].device_class == "mig.nvidia.com");
  CHECK(claims[0].requests[0].alternatives[0].selectors[0].expression() ==
        "device.attributes[\"gpu.nvidia.com\"].profile == \"1g.5gb\"");
}

TEST_CASE("bad DRA input is refused at its JSON pointer", "[io][dra]") {
  const std::string one_g = Exactly("mig.nvidia.com", kProfile1g);
  CHECK(test::LoadError(
            Doc(R"({"dynamic_mig": true})",
                Exactly("mig.nvidia.com",
                        R"x("device.attributes[\"gpu.nvidia.com\"].uuid.matches(\"x\")")x"))) ==
        "t.json:/workloads/w/template/resource_claims/0/requests/0/exactly/selectors/0: "
        "selector 'device.attributes[\"gpu.nvidia.com\"].uuid.matches(\"x\")': unsupported "
        "construct 'matches' at column 42 (migsim supports device.driver, "
        "device.attributes[...], device.capacity[...], literals, quantity(), compareTo(), "
        "== != < <= > >=, in [...], &&, || and !)");
  CHECK(test::LoadError(Doc(R"({"dynamic_mig": true})", Exactly("example.com", kProfile1g))) ==
        "t.json:/workloads/w/template/resource_claims/0/requests/0/exactly/deviceClassName: "
        "unknown device class 'example.com' (valid: gpu.nvidia.com, mig.nvidia.com)");
  CHECK(test::LoadError(Doc(R"({"dynamic_mig": 1})", one_g)) ==
        "t.json:/cluster/nodes/p4d/dra/dynamic_mig: expected a boolean, got a number");
  CHECK(test::LoadError(Doc(R"({"mig_create_s": 3})", one_g)) ==
        "t.json:/cluster/nodes/p4d/dra/mig_create_s: mig_create_s needs dynamic_mig: true");
  CHECK(test::LoadError(
            Doc(R"({"dynamic_mig": true})", R"([{"name": "c", "requests": [{"name": "r"}]}])")) ==
        "t.json:/workloads/w/template/resource_claims/0/requests/0: give either 'exactly' or "
        "'firstAvailable'");
  CHECK(
      test::LoadError(Doc(
          R"({"dynamic_mig": true})",
          R"([{"name": "c", "requests": [{"name": "r", "exactly": {"deviceClassName": "mig.nvidia.com", "allocationMode": "All", "count": 2}}]}])")) ==
      "t.json:/workloads/w/template/resource_claims/0/requests/0/exactly/count: count is for "
      "ExactCount only");
  CHECK(test::LoadError(Doc(R"({})", one_g, 1,
                            R"("device_classes": {"mig.nvidia.com": {"selectors": []}},)")) ==
        "t.json:/device_classes/mig.nvidia.com: device class 'mig.nvidia.com' is defined "
        "already (NVIDIA's driver installs gpu.nvidia.com and mig.nvidia.com)");
  const std::string both = R"({"name": "t", "description": "d",
    "cluster": {"nodes": {"p4d": {"type": "p4d.24xlarge", "dra": {},
      "device_plugin": {"mig_strategy": "mixed"}}}}, "workloads": {}})";
  CHECK(test::LoadError(both) ==
        "t.json:/cluster/nodes/p4d/device_plugin: a pool's GPUs are under DRA or the device "
        "plugin, not both (remove 'device_plugin' or 'dra')");
  const std::string v100 = R"({"name": "t", "description": "d",
    "cluster": {"nodes": {"v": {"type": "p3.8xlarge", "dra": {"dynamic_mig": true}}}},
    "workloads": {}})";
  CHECK(test::LoadError(v100) ==
        "t.json:/cluster/nodes/v/dra/dynamic_mig: V100-SXM2-16GB does not support MIG");
}

TEST_CASE("claims are allocated, MIG instances created on demand and destroyed at the end",
          "[io][dra]") {
  // 8 GPUs x 7 1g.5gb = 56 instances; 60 pods: 4 wait for the first to end.
  const Scenario s = test::LoadFirstVariant(Doc(R"({"dynamic_mig": true, "mig_create_s": 3})",
                                                Exactly("mig.nvidia.com", kProfile1g), 60));
  FirstFitPolicy policy;
  auto engine = Run(s, policy);
  int succeeded = 0;
  for (const Pod& pod : engine->pods()) {
    succeeded += pod.phase == PodPhase::kSucceeded;
    CHECK((pod.started - pod.bound) == SimTime::Seconds(3));  // one instance, created
  }
  CHECK(succeeded == 60);
  CHECK(engine->counters().mig_instances_created == 60);
  CHECK(engine->counters().mig_instances_destroyed == 60);
  CHECK(engine->counters().mig_creation_seconds == 180);
  CHECK(engine->counters().mig_windows == 0);
  CHECK(engine->end_time() == SimTime::Seconds(26));  // 13 s per round, two rounds
  CHECK(engine->DeviceName(engine->pods()[7]) == "gpu1/1g.5gb@0");
}

TEST_CASE("a pod asking for a MIG extended resource does not fit a DRA pool", "[io][dra]") {
  std::string text = Doc(R"({"dynamic_mig": true})", "[]");
  text.replace(text.find(R"("resource_claims": [])"), 21,
               R"("resources": {"nvidia.com/mig-1g.5gb": 1})");
  const Scenario s = test::LoadFirstVariant(text);
  FirstFitPolicy policy;
  auto engine = Run(s, policy);
  CHECK(engine->pods()[0].phase == PodPhase::kPending);
}

}  // namespace migsim

namespace migsim {

TEST_CASE("the DRA scenario's variants run the same twice, instance for instance", "[io][dra]") {
  Result<ScenarioFile> file =
      LoadScenarioFile(std::string(MIGSIM_SOURCE_DIR) + "/scenarios/dra-dynamic-mig.json");
  REQUIRE(file.ok());
  for (const auto& [name, scenario] : file.value().variants) {
    if (!name.starts_with("dra-")) continue;
    INFO(name);
    FirstFitPolicy first, second;
    auto a = test::RunEngine(scenario, first);
    auto b = test::RunEngine(scenario, second);
    REQUIRE(a->pods().size() == b->pods().size());
    for (size_t i = 0; i < a->pods().size(); ++i) {
      CHECK(a->DeviceName(a->pods()[i]) == b->DeviceName(b->pods()[i]));
      CHECK(a->pods()[i].ended == b->pods()[i].ended);
    }
    CHECK(a->counters().mig_instances_created == 96);
    CHECK(a->mig_fragmentation() > 0);
    CHECK(a->mig_fragmentation() == b->mig_fragmentation());
  }
}

}  // namespace migsim
