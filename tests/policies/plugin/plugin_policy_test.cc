#include "policies/plugin/plugin_policy.h"

#include <catch2/catch.hpp>
#include <string>

#include "policies/registry.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

std::string Fixture(const std::string& name) {
  return std::string(MIGSIM_PLUGIN_FIXTURE_DIR) + "/libplugin_" + name + ".so";
}

std::string LoadError(const std::string& path, const std::string& params = "{}") {
  Result<std::unique_ptr<Policy>> r = LoadPluginPolicy(path, params);
  REQUIRE_FALSE(r.ok());
  return r.status().message();
}

TEST_CASE("a plugin policy loads, names itself and places pods", "[policies][plugin]") {
  Result<std::unique_ptr<Policy>> r = LoadPluginPolicy(Fixture("good"), "{}");
  REQUIRE(r.ok());
  CHECK(r.value()->name() == "fixture");
  Scenario s;
  s.cluster.nodes = {test::GpuNode("a", "g4dn.xlarge"), test::GpuNode("b", "g4dn.xlarge")};
  const JobClassId job = test::AddJobClass(s, "job", test::Sec(0), test::Sec(10));
  test::AddPods(s, "p", test::Sec(0),
                test::AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .job_class = job}), 3);
  auto engine = test::RunEngine(s, *r.value());
  CHECK(engine->rejected_decisions() == 0);
  for (const Pod& pod : engine->pods()) CHECK(pod.phase == PodPhase::kSucceeded);
}

TEST_CASE("a plugin's bad answer is rejected and counted, and the pod stays pending",
          "[policies][plugin]") {
  Result<std::unique_ptr<Policy>> r = LoadPluginPolicy(Fixture("bad_answer"), "{}");
  REQUIRE(r.ok());
  Scenario s;
  s.cluster.nodes = {test::GpuNode("a", "g4dn.xlarge")};
  test::AddPods(s, "p", test::Sec(0), test::AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}}),
                1);
  auto engine = test::RunEngine(s, *r.value());
  CHECK(engine->rejected_decisions() == 1);
  CHECK(engine->pods()[0].phase == PodPhase::kPending);
}

TEST_CASE("a plugin that cannot be used is refused with a message naming why",
          "[policies][plugin]") {
  CHECK(LoadError("/nonexistent/libx.so") ==
        "policy library '/nonexistent/libx.so' does not exist");
  CHECK_THAT(LoadError(std::string(MIGSIM_SOURCE_DIR) + "/README.md"),
             Catch::StartsWith("cannot load policy library: ") && Catch::Contains("README.md"));
  CHECK(LoadError(Fixture("wrong_abi")) ==
        "policy library '" + Fixture("wrong_abi") +
            "' is built for policy ABI version 2; this migsim loads version 1");
  CHECK(LoadError(Fixture("missing_symbol")) ==
        "policy library '" + Fixture("missing_symbol") + "' does not export migsim_policy_name");
  CHECK(LoadError(Fixture("refuses_params"), R"({"x":1})") ==
        "policy library '" + Fixture("refuses_params") +
            "' refused its params: unknown param in {\"x\":1}");
}

TEST_CASE("the registry makes a library policy through the plugin loader", "[policies][plugin]") {
  PolicySpec spec{.name = "x", .library = Fixture("good"), .params_json = "{}"};
  std::unique_ptr<Policy> p = MakePolicy(spec);
  REQUIRE(p != nullptr);
  CHECK(p->name() == "fixture");
  spec.library = Fixture("wrong_abi");
  CHECK(MakePolicy(spec) == nullptr);
}

}  // namespace
}  // namespace migsim
