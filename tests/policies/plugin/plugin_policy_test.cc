#include "policies/plugin/plugin_policy.h"

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "policies/registry.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/tiny_world.h"
#include "tests/support/working_directory.h"

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
  CHECK(engine->policy_decisions() == 1);
  CHECK(engine->first_rejection() ==
        "at 0 s, pod p: node 999 does not exist (the cluster has 1 node)");
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
            "' is built for policy ABI version 3; this migsim loads versions 1 to 2");
  CHECK(LoadError(Fixture("missing_symbol")) ==
        "policy library '" + Fixture("missing_symbol") + "' does not export migsim_policy_name");
  CHECK(LoadError(Fixture("refuses_params"), R"({"x":1})") ==
        "policy library '" + Fixture("refuses_params") +
            "' refused its params: unknown param in {\"x\":1}");
}

TEST_CASE("a plugin whose name is NULL is refused, naming the file", "[policies][plugin]") {
  CHECK(LoadError(Fixture("null_name")) ==
        "policy library '" + Fixture("null_name") +
            "': migsim_policy_name returned NULL; it must return the policy's name");
}

TEST_CASE("a plugin named like a system library loads from its path, not the system's",
          "[policies][plugin]") {
  // libm.so.6 is loaded in this process already (and in the ld.so cache): dlopen of the bare
  // name would hand back the system's libm, which exports no migsim symbol.
  const test::ScratchDir scratch("plugin-system-name");
  const std::filesystem::path& dir = scratch.path();
  std::filesystem::copy_file(Fixture("good"), dir / "libm.so.6");
  const test::WorkingDirectory cwd(dir);
  for (const char* path : {"libm.so.6", "./libm.so.6"}) {
    INFO(path);
    Result<std::unique_ptr<Policy>> r = LoadPluginPolicy(path, "{}");
    REQUIRE(r.ok());
    CHECK(r.value()->name() == "fixture");
  }
}

TEST_CASE("a plugin path that is not a regular file is refused before anything is loaded",
          "[policies][plugin]") {
  const test::ScratchDir scratch("plugin-not-regular");
  const std::filesystem::path& dir = scratch.path();
  REQUIRE(mkfifo((dir / "fifo.so").c_str(), 0600) == 0);
  CHECK(LoadError((dir / "fifo.so").string()) ==
        "policy library '" + (dir / "fifo.so").string() + "' is not a regular file");
  CHECK(LoadError(dir.string()) == "policy library '" + dir.string() + "' is not a regular file");
}

TEST_CASE("a plugin loaded twice at once, and again after both closed, is the same file",
          "[policies][plugin]") {
  const test::ScratchDir scratch("plugin-twice");
  const std::filesystem::path& dir = scratch.path();
  std::filesystem::copy_file(Fixture("good"), dir / "libp.so");
  {
    Result<std::unique_ptr<Policy>> first = LoadPluginPolicy((dir / "libp.so").string(), "{}");
    Result<std::unique_ptr<Policy>> second = LoadPluginPolicy((dir / "libp.so").string(), "{}");
    REQUIRE(first.ok());
    REQUIRE(second.ok());
  }
  // Replaced by another plugin (a new inode) once the first copy is unloaded: the new one.
  std::filesystem::remove(dir / "libp.so");
  std::filesystem::copy_file(Fixture("null_name"), dir / "libp.so");
  CHECK_THAT(LoadError((dir / "libp.so").string()), Catch::EndsWith("returned NULL; it must "
                                                                    "return the policy's name"));
}

TEST_CASE("a plugin replaced on disk while its old copy stays loaded is refused, not run",
          "[policies][plugin]") {
  const test::ScratchDir scratch("plugin-replaced");
  const std::string path = scratch.Path("libp.so");
  std::filesystem::copy_file(Fixture("nodelete"), path);
  REQUIRE(LoadPluginPolicy(path, "{}").ok());  // closed at once, but the loader keeps it
  std::filesystem::remove(path);
  std::filesystem::copy_file(Fixture("null_name"), path);  // rebuilt in place: a new inode
  CHECK_THAT(LoadError(path), Catch::StartsWith("policy library '" + path +
                                                "' changed on disk since this process "
                                                "loaded it") &&
                                  Catch::EndsWith("restart the process to load the new one"));
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
