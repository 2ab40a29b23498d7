// Scenario files written in YAML: the JSON document they stand for, typed by YAML 1.2's core
// schema, with errors at their lines.

#include <catch2/catch.hpp>
#include <string>

#include "sim/io/scenario_json.h"
#include "sim/io/sweep_json.h"
#include "sim/io/yaml_json.h"
#include "sim/study/scenario_facts.h"
#include "tests/support/run_migsim.h"
#include "tests/support/scratch_dir.h"

namespace migsim {
namespace {

// A small valid scenario; `count` is the Pod workload's count as written (line 6).
std::string Yaml(const std::string& count = "2") {
  return "name: t\n"
         "description: d\n"
         "cluster: {nodes: {a: {type: p4d.24xlarge}}}\n"
         "job_classes: {train: {run_s: 10}}\n"
         "workloads:\n"
         "  w: {kind: Pod, count: " +
         count + ", template: {job_class: train}}\n";
}

// What `migsim validate` prints of every variant: the facts the loader built.
std::string Facts(const ScenarioFile& file) {
  std::string out = file.name + "\n";
  for (const auto& [name, scenario] : file.variants) {
    out += FormatVariantFacts(DescribeVariant(name, scenario));
  }
  return out;
}

Status YamlError(const std::string& text, const test::ScratchDir& dir) {
  Result<ScenarioFile> loaded = LoadScenarioFile(dir.Write("s.yaml", text));
  REQUIRE_FALSE(loaded.ok());
  return loaded.status();
}

io::Json Scalar(const std::string& text) {
  Result<io::YamlJson> yaml = io::ParseYamlAsJson("v: " + text + "\n", "v.yaml");
  REQUIRE(yaml.ok());
  return yaml.value().doc["v"];
}

}  // namespace

TEST_CASE("the shipped YAML scenario loads as its JSON twin", "[io][yaml]") {
  const std::string dir = std::string(MIGSIM_SOURCE_DIR) + "/scenarios/";
  Result<ScenarioFile> json = LoadScenarioFile(dir + "bert-a100.json");
  Result<ScenarioFile> yaml = LoadScenarioFile(dir + "bert-a100.yaml");
  REQUIRE(json.ok());
  REQUIRE(yaml.ok());
  CHECK(yaml.value().description == json.value().description);
  CHECK(yaml.value().variants.size() == 4);
  CHECK(Facts(yaml.value()) == Facts(json.value()));
}

TEST_CASE("the shipped YAML scenario runs to the JSON twin's results, byte for byte",
          "[io][yaml]") {
  const std::string dir = std::string(MIGSIM_SOURCE_DIR) + "/scenarios/";
  const test::Outcome json = test::RunMigsim("run '" + dir + "bert-a100.json' --json -q");
  test::Outcome yaml = test::RunMigsim("run '" + dir + "bert-a100.yaml' --json -q");
  REQUIRE(json.exit_code == 0);
  REQUIRE(yaml.exit_code == 0);
  // The results name the file they came from; all else is the same.
  const std::string from = "bert-a100.yaml\"", to = "bert-a100.json\"";
  REQUIRE(yaml.output.find(from) != std::string::npos);
  for (size_t at = yaml.output.find(from); at != std::string::npos; at = yaml.output.find(from)) {
    yaml.output.replace(at, from.size(), to);
  }
  CHECK(yaml.output == json.output);
}

TEST_CASE("YAML plain scalars are typed by the core schema and quoted ones stay strings",
          "[io][yaml]") {
  CHECK(Scalar("1") == io::Json(1));
  CHECK(Scalar("-3").get<int64_t>() == -3);
  CHECK(Scalar("0x1f") == io::Json(31));
  CHECK(Scalar("0o17") == io::Json(15));
  CHECK(Scalar("18446744073709551615").get<uint64_t>() == 18446744073709551615ull);
  CHECK(Scalar("2.5") == io::Json(2.5));
  CHECK(Scalar("1e3").is_number_float());
  CHECK(Scalar(".5") == io::Json(0.5));
  CHECK(Scalar("true") == io::Json(true));
  CHECK(Scalar("False") == io::Json(false));
  CHECK(Scalar("~").is_null());
  CHECK(Scalar("null").is_null());
  CHECK(Scalar("").is_null());
  // YAML 1.1's booleans and sexagesimals are strings under 1.2.
  CHECK(Scalar("yes") == io::Json("yes"));
  CHECK(Scalar("off") == io::Json("off"));
  CHECK(Scalar("1:30") == io::Json("1:30"));
  CHECK(Scalar("1g.5gb") == io::Json("1g.5gb"));
  CHECK(Scalar("\"1\"") == io::Json("1"));
  CHECK(Scalar("'true'") == io::Json("true"));
  CHECK(Scalar("!!str 12") == io::Json("12"));
  CHECK(Scalar("|\n  two\n  lines") == io::Json("two\nlines\n"));
}

TEST_CASE("a YAML scenario's error names the file, the line and the pointer", "[io][yaml]") {
  test::ScratchDir dir("yaml-scenario");
  CHECK(LoadScenarioFile(dir.Write("s.yaml", Yaml())).ok());
  const Status zero = YamlError(Yaml("0"), dir);
  CHECK(zero.ToString() == dir.Path("s.yaml") + ":6:/workloads/w/count: must be >= 1");
  // A quoted number is a string, as "1" is in JSON.
  const Status quoted = YamlError(Yaml("\"2\""), dir);
  CHECK(quoted.ToString() ==
        dir.Path("s.yaml") + ":6:/workloads/w/count: expected an integer, got a string");
  const Status inf = YamlError(Yaml(".inf"), dir);
  CHECK(inf.ToString() == dir.Path("s.yaml") +
                              ":6:/workloads/w/count: '.inf' is not a finite number, which JSON "
                              "cannot hold");
}

TEST_CASE("a variant's error in a YAML scenario names the line in the variant", "[io][yaml]") {
  test::ScratchDir dir("yaml-scenario");
  const Status error = YamlError(Yaml() +
                                     "variants:\n"
                                     "  ok: {}\n"
                                     "  bad:\n"
                                     "    workloads:\n"
                                     "      w: {count: -1}\n",
                                 dir);
  CHECK(error.ToString() ==
        dir.Path("s.yaml") + ":11:/workloads/w/count: variant 'bad': must be >= 1");
}

TEST_CASE("a YAML scenario with a repeated key, or two documents, is refused", "[io][yaml]") {
  test::ScratchDir dir("yaml-scenario");
  CHECK(YamlError(Yaml() + "seed: 1\nseed: 2\n", dir).ToString() ==
        dir.Path("s.yaml") + ":8:/seed: duplicate key (JSON keeps only one of the values)");
  CHECK(YamlError(Yaml() + "---\nname: u\n", dir).ToString() ==
        dir.Path("s.yaml") + ": a YAML scenario is one document; this file has 2");
  CHECK(YamlError("[1, 2]\n", dir).ToString() ==
        dir.Path("s.yaml") + ":1: expected an object, got an array");
  CHECK(YamlError("name: [\n", dir).code() == StatusCode::kParseError);
}

TEST_CASE("a .yml scenario and a $schema member load too", "[io][yaml]") {
  test::ScratchDir dir("yaml-scenario");
  Result<ScenarioFile> loaded =
      LoadScenarioFile(dir.Write("s.yml", "$schema: scenario.schema.json\n" + Yaml()));
  REQUIRE(loaded.ok());
  CHECK(loaded.value().name == "t");
}

TEST_CASE("a sweep over a YAML scenario reads it as JSON", "[io][yaml][sweep]") {
  test::ScratchDir dir("yaml-sweep");
  dir.Write("s.yaml", Yaml());
  Result<SweepFile> sweep = LoadSweepFile(dir.Write(
      "sweep.json",
      R"({"name": "w", "scenario": "s.yaml", "axes": {"/workloads/w/count": [1, 2, 3]}})"));
  REQUIRE(sweep.ok());
  CHECK(sweep.value().points.size() == 3);
}

}  // namespace migsim
