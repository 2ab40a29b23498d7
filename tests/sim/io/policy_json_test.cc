// A scenario's "policy" object (sim/io/policy_json.h): parameters checked against the
// policy's ParamSpecs, defaults filled in, errors at their JSON pointers.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "policies/registry.h"
#include "sim/io/scenario_json.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/working_directory.h"

namespace migsim {
namespace {

// A valid document with `policy` as its "policy" member.
std::string Doc(const std::string& policy) {
  return R"({"name": "t", "description": "d",
    "cluster": {"nodes": {"a": {"type": "p4d.24xlarge"}}},
    "job_classes": {"train": {"run_s": 10}},
    "workloads": {"w": {"kind": "Pod", "template": {"job_class": "train"}}},
    "policy": )" +
         policy + "}";
}

PolicySpec SpecOf(const std::string& policy) {
  Result<ScenarioFile> loaded = ParseScenarioText(Doc(policy), "t.json");
  INFO(policy);
  REQUIRE(loaded.ok());
  return loaded.value().variants.at(0).second.policy;
}

std::string MessageOf(const std::string& policy) {
  Result<ScenarioFile> loaded = ParseScenarioText(Doc(policy), "t.json");
  INFO(policy);
  REQUIRE_FALSE(loaded.ok());
  return loaded.status().ToString();
}

std::string PointerOf(const std::string& policy) {
  Result<ScenarioFile> loaded = ParseScenarioText(Doc(policy), "t.json");
  INFO(policy);
  REQUIRE_FALSE(loaded.ok());
  return loaded.status().location().json_pointer;
}

TEST_CASE("a policy's params are read and the ones left out get their defaults", "[io][policy]") {
  CHECK_FALSE(SpecOf(R"({"name": "mig-best-fit"})").Bool("dynamic"));
  CHECK(SpecOf(R"({"name": "mig-best-fit", "params": {"dynamic": true}})").Bool("dynamic"));
  CHECK(SpecOf(R"({"name": "mig-fgd", "params": {}})").params.size() == 1);
  CHECK(SpecOf(R"({"name": "random"})").Integer("seed") == 1);
  CHECK(SpecOf(R"({"name": "random", "params": {"seed": 7}})").Integer("seed") == 7);
  CHECK(SpecOf(R"({"name": "random", "params": {"seed": 9007199254740992}})").Integer("seed") ==
        9007199254740992);
  const PolicySpec first_fit = SpecOf(R"({"name": "first-fit"})");
  CHECK(first_fit.name == "first-fit");
  CHECK(first_fit.params.empty());
  CHECK(first_fit.library.empty());
}

TEST_CASE("a scenario without a policy runs first-fit", "[io][policy]") {
  const std::string doc = R"({"name": "t", "description": "d",
    "cluster": {"nodes": {"a": {"type": "p4d.24xlarge"}}}, "workloads": {}})";
  Result<ScenarioFile> loaded = ParseScenarioText(doc, "t.json");
  REQUIRE(loaded.ok());
  CHECK(loaded.value().variants.at(0).second.policy.name == "first-fit");
}

TEST_CASE("scored reads its plugins with their weights and params", "[io][policy]") {
  const PolicySpec spec = SpecOf(R"({"name": "scored", "params": {"plugins": [
      {"name": "least-allocated"},
      {"name": "mig-best-fit", "weight": 2.5, "params": {"dynamic": true}},
      {"name": "mig-fgd", "weight": 1}]}})");
  REQUIRE(spec.name == "scored");
  const std::vector<WeightedPlugin>& plugins = spec.Plugins("plugins");
  REQUIRE(plugins.size() == 3);
  CHECK(plugins[0].plugin.name == "least-allocated");
  CHECK(plugins[0].weight == 1);
  CHECK(plugins[1].plugin.name == "mig-best-fit");
  CHECK(plugins[1].weight == 2.5);
  CHECK(plugins[1].plugin.Bool("dynamic"));
  CHECK_FALSE(plugins[2].plugin.Bool("dynamic"));  // the plugin's own default
}

std::string Fixture(const std::string& name) {
  return std::string(MIGSIM_PLUGIN_FIXTURE_DIR) + "/libplugin_" + name + ".so";
}

TEST_CASE("a library policy is loaded when the scenario is read and keeps its params as JSON",
          "[io][policy]") {
  const PolicySpec spec =
      SpecOf(R"({"library": ")" + Fixture("good") + R"(", "params": {"alpha": 0.5}})");
  CHECK(spec.library == Fixture("good"));
  CHECK(spec.name == "fixture");  // the plugin's own name
  CHECK(spec.params_json == R"({"alpha":0.5})");
  CHECK(SpecOf(R"({"library": ")" + Fixture("good") + R"("})").params_json == "{}");
}

TEST_CASE("a library policy that does not load is an error at its pointer", "[io][policy]") {
  CHECK(MessageOf(R"({"library": "/nonexistent/libmine.so"})") ==
        "t.json:/policy/library: policy library '/nonexistent/libmine.so' does not exist");
  CHECK_THAT(MessageOf(R"({"library": ")" + Fixture("wrong_abi") + R"("})"),
             Catch::StartsWith("t.json:/policy/library: policy library '") &&
                 Catch::EndsWith(
                     "' is built for policy ABI version 3; this migsim loads versions 1 to 2"));
  CHECK_THAT(
      MessageOf(R"({"library": ")" + Fixture("refuses_params") + R"(", "params": {"x": 1}})"),
      Catch::StartsWith("t.json:/policy/params: policy library '") &&
          Catch::EndsWith("' refused its params: unknown param in {\"x\":1}"));
}

// Writes Doc({"library": library}) to `file`.
void WriteScenario(const std::filesystem::path& file, const std::string& library) {
  std::ofstream(file) << Doc(R"({"library": ")" + library + R"("})");
}

TEST_CASE("a library named like a system one, beside the scenario, is the one loaded",
          "[io][policy]") {
  // "./libm.so.6" from s.json read as "s.json": the path must keep a slash, else dlopen
  // hands back the system's libm (loaded in this process), which is no policy.
  const test::ScratchDir scratch("policy-json-system-name");
  const std::filesystem::path& dir = scratch.path();
  std::filesystem::copy_file(Fixture("good"), dir / "libm.so.6");
  WriteScenario(dir / "s.json", "./libm.so.6");
  const test::WorkingDirectory cwd(dir);
  Result<ScenarioFile> loaded = LoadScenarioFile("s.json");
  REQUIRE(loaded.ok());
  const PolicySpec& spec = loaded.value().variants.at(0).second.policy;
  CHECK(spec.name == "fixture");
  CHECK(spec.library == std::filesystem::canonical(dir / "libm.so.6").string());
}

TEST_CASE(
    "a relative library path is resolved against the scenario's directory, whatever the "
    "working directory",
    "[io][policy]") {
  const test::ScratchDir scratch("policy-json-relative");
  const std::filesystem::path& dir = scratch.path();
  std::filesystem::create_directories(dir / "scenarios" / "plugins");
  std::filesystem::create_directories(dir / "elsewhere");
  std::filesystem::copy_file(Fixture("good"), dir / "scenarios" / "plugins" / "libp.so");
  WriteScenario(dir / "scenarios" / "s.json", "plugins/libp.so");
  std::optional<ScenarioFile> file;
  {
    const test::WorkingDirectory cwd(dir / "elsewhere");
    Result<ScenarioFile> loaded = LoadScenarioFile("../scenarios/s.json");
    REQUIRE(loaded.ok());
    file = std::move(loaded).value();
  }
  const PolicySpec& spec = file->variants.at(0).second.policy;
  CHECK(spec.name == "fixture");
  // Absolute: a run made from another working directory loads the same file.
  CHECK(spec.library ==
        std::filesystem::canonical(dir / "scenarios" / "plugins" / "libp.so").string());
  const test::WorkingDirectory cwd(std::filesystem::temp_directory_path());
  std::unique_ptr<Policy> policy = MakePolicy(spec);
  REQUIRE(policy != nullptr);
  CHECK(policy->name() == "fixture");
}

TEST_CASE("a library whose policy name is NULL is an error at its pointer", "[io][policy]") {
  CHECK(MessageOf(R"({"library": ")" + Fixture("null_name") + R"("})") ==
        "t.json:/policy/library: policy library '" + Fixture("null_name") +
            "': migsim_policy_name returned NULL; it must return the policy's name");
}

TEST_CASE("an unknown param names the policy's params", "[io][policy]") {
  CHECK(MessageOf(R"({"name": "mig-best-fit", "params": {"dynamik": true}})") ==
        "t.json:/policy/params/dynamik: unknown param of policy 'mig-best-fit' 'dynamik' "
        "(valid: dynamic)");
  CHECK(MessageOf(R"({"name": "random", "params": {"seed": 3, "sed": 3}})") ==
        "t.json:/policy/params/sed: unknown param of policy 'random' 'sed' (valid: seed)");
}

TEST_CASE("a param of the wrong type names both types", "[io][policy]") {
  CHECK(MessageOf(R"({"name": "mig-best-fit", "params": {"dynamic": 1}})") ==
        "t.json:/policy/params/dynamic: expected a boolean, got a number");
  CHECK(MessageOf(R"({"name": "mig-fgd", "params": {"dynamic": "yes"}})") ==
        "t.json:/policy/params/dynamic: expected a boolean, got a string");
  CHECK(MessageOf(R"({"name": "random", "params": {"seed": "7"}})") ==
        "t.json:/policy/params/seed: expected an integer, got a string");
  CHECK(MessageOf(R"({"name": "random", "params": {"seed": 1.5}})") ==
        "t.json:/policy/params/seed: expected an integer, got 1.5");
  CHECK(MessageOf(R"({"name": "random", "params": 3})") ==
        "t.json:/policy/params: expected an object, got a number");
}

TEST_CASE("an integer param out of its range is an error at its pointer", "[io][policy]") {
  CHECK(MessageOf(R"({"name": "random", "params": {"seed": -1}})") ==
        "t.json:/policy/params/seed: must be >= 0");
  CHECK(MessageOf(R"({"name": "random", "params": {"seed": 9007199254740994}})") ==
        "t.json:/policy/params/seed: must be <= 9007199254740992");
}

TEST_CASE("params for a policy that takes none are an error", "[io][policy]") {
  CHECK(MessageOf(R"({"name": "first-fit", "params": {"x": 1}})") ==
        "t.json:/policy/params/x: policy 'first-fit' takes no params");
  CHECK(MessageOf(R"({"name": "fgd", "params": {"seed": 1}})") ==
        "t.json:/policy/params/seed: policy 'fgd' takes no params");
}

TEST_CASE("scored needs at least one plugin", "[io][policy]") {
  CHECK(MessageOf(R"({"name": "scored"})") ==
        "t.json:/policy: policy 'scored' needs params.plugins");
  CHECK(MessageOf(R"({"name": "scored", "params": {"plugins": []}})") ==
        "t.json:/policy/params/plugins: needs at least one score plugin");
  CHECK(MessageOf(R"({"name": "scored", "params": {"plugins": {}}})") ==
        "t.json:/policy/params/plugins: expected an array, got an object");
}

TEST_CASE("scored with params but no plugins is an error", "[io][policy]") {
  // The params object is there, its plugins are not: there is nothing to score with.
  CHECK(MessageOf(R"({"name": "scored", "params": {}})") ==
        "t.json:/policy/params: missing required param 'plugins'");
}

TEST_CASE("a scored plugin must be a scoring policy", "[io][policy]") {
  CHECK(MessageOf(R"({"name": "scored", "params": {"plugins": [{"name": "first-fit"}]}})") ==
        "t.json:/policy/params/plugins/0/name: unknown score plugin 'first-fit' (valid: "
        "best-fit, spread, most-allocated, least-allocated, dot-product, gpu-clustering, "
        "gpu-packing, best-fit-share, fgd, mig-first-fit, mig-best-fit, mig-fgd)");
  CHECK(PointerOf(R"({"name": "scored", "params": {"plugins": [
      {"name": "spread"}, {"name": "scored", "params": {"plugins": [{"name": "spread"}]}}]}})") ==
        "/policy/params/plugins/1/name");
  CHECK(PointerOf(R"({"name": "scored", "params": {"plugins": [{"name": "random"}]}})") ==
        "/policy/params/plugins/0/name");
}

TEST_CASE("a scored plugin's weight must be positive and its fields known", "[io][policy]") {
  CHECK(MessageOf(R"({"name": "scored", "params": {"plugins": [
      {"name": "spread", "weight": 0}]}})") ==
        "t.json:/policy/params/plugins/0/weight: must be > 0");
  CHECK(PointerOf(R"({"name": "scored", "params": {"plugins": [
      {"name": "spread", "weight": -1}]}})") == "/policy/params/plugins/0/weight");
  CHECK(MessageOf(R"({"name": "scored", "params": {"plugins": [
      {"name": "spread", "weight": "2"}]}})") ==
        "t.json:/policy/params/plugins/0/weight: expected a number, got a string");
  CHECK(MessageOf(R"({"name": "scored", "params": {"plugins": [
      {"name": "spread", "wieght": 2}]}})") ==
        "t.json:/policy/params/plugins/0/wieght: unknown field 'wieght' (expected one of: "
        "name, weight, params)");
  CHECK(MessageOf(R"({"name": "scored", "params": {"plugins": [
      {"name": "mig-fgd", "params": {"dynamik": true}}]}})") ==
        "t.json:/policy/params/plugins/0/params/dynamik: unknown param of policy 'mig-fgd' "
        "'dynamik' (valid: dynamic)");
}

TEST_CASE("a policy gives either a name or a library", "[io][policy]") {
  CHECK(MessageOf(R"({"name": "first-fit", "library": "libmine.so"})") ==
        "t.json:/policy/name: give either 'name' or 'library', not both");
  CHECK(MessageOf(R"({"library": ""})") == "t.json:/policy/library: must not be empty");
  CHECK(MessageOf(R"({"name": "first-fit", "weight": 1})") ==
        "t.json:/policy/weight: unknown field 'weight' (expected one of: name, params)");
}

}  // namespace
}  // namespace migsim
