// Errors of the document as a whole: syntax, top-level fields, policy, variants.

#include <catch2/catch.hpp>
#include <string>

#include "sim/io/scenario_json.h"

namespace migsim {
namespace {

// A valid document; `extra` is spliced in as further top-level members.
std::string Doc(const std::string& extra = "") {
  return R"({"name": "t", "description": "d",
    "cluster": {"nodes": {"a": {"type": "p4d.24xlarge"}}},
    "job_classes": {"train": {"run_s": 10}},
    "workloads": {"w": {"kind": "Pod", "template": {"job_class": "train"}}})" +
         extra + "}";
}

Status ErrorOf(std::string_view text) {
  Result<ScenarioFile> loaded = ParseScenarioText(text, "t.json");
  REQUIRE_FALSE(loaded.ok());
  return loaded.status();
}

std::string MessageOf(std::string_view text) { return ErrorOf(text).ToString(); }

}  // namespace

TEST_CASE("the test document is valid", "[io]") { CHECK(ParseScenarioText(Doc(), "t.json").ok()); }

TEST_CASE("malformed JSON is a parse error at a line and column", "[io]") {
  const Status error = ErrorOf("{\n  \"name\": \"t\",\n  \"description\" \"d\"\n}");
  CHECK(error.code() == StatusCode::kParseError);
  CHECK(error.location().json_pointer == "line 3, column 19");
  CHECK(error.ToString() ==
        "t.json:line 3, column 19: malformed JSON: syntax error while parsing object separator - "
        "unexpected string literal; expected ':'");
  CHECK(MessageOf("") ==
        "t.json:line 1, column 1: malformed JSON: syntax error while parsing value - unexpected "
        "end of input; expected '[', '{', or a literal");
}

TEST_CASE("a Kubernetes manifest given as the scenario is told where manifests go", "[io]") {
  const Result<ScenarioFile> loaded = LoadScenarioFile(
      std::string(MIGSIM_SOURCE_DIR) + "/scenarios/manifests/dra/jobs.yaml", {});
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.status().code() == StatusCode::kInvalidArgument);
  CHECK_THAT(loaded.status().ToString(),
             Catch::EndsWith("/scenarios/manifests/dra/jobs.yaml: a Kubernetes manifest (its "
                             "first document has apiVersion and kind) where the scenario goes: "
                             "the first file is a scenario, in JSON or YAML; Kubernetes manifests "
                             "go after it or in its \"manifests\" (scenarios/README.md, "
                             "\"Kubernetes manifests\")"));
}

TEST_CASE("a document that is not an object is rejected at the root", "[io]") {
  CHECK(MessageOf("[1]") == "t.json: expected an object, got an array");
}

TEST_CASE("an unknown top-level field lists the expected ones", "[io]") {
  const Status error = ErrorOf(Doc(R"(, "seeed": 3)"));
  CHECK(error.code() == StatusCode::kInvalidArgument);
  CHECK(error.location().file == "t.json");
  CHECK(error.location().json_pointer == "/seeed");
  CHECK(error.message() ==
        "unknown field 'seeed' (expected one of: name, description, seed, horizon_s, policy, "
        "scheduler, cluster, job_classes, workloads, variants, priority_classes, queueing_theory, "
        "pod_disruption_budgets, kueue, faults, fault_processes, manifests, manifest_overlay, "
        "device_classes, resource_claims, energy)");
}

TEST_CASE("a missing required field is reported at the object that lacks it", "[io]") {
  CHECK(MessageOf(R"({"name": "t", "description": "d", "workloads": {}})") ==
        "t.json: missing required field 'cluster'");
  CHECK(MessageOf(R"({"description": "d"})") == "t.json: missing required field 'name'");
  CHECK(MessageOf(R"({"name": "", "description": "d"})") == "t.json:/name: must not be empty");
}

TEST_CASE("a top-level field of the wrong type names both types", "[io]") {
  CHECK(MessageOf(Doc(R"(, "horizon_s": "1h")")) ==
        "t.json:/horizon_s: expected a number, got a string");
  CHECK(MessageOf(Doc(R"(, "seed": -1)")) == "t.json:/seed: must be >= 0");
  CHECK(MessageOf(Doc(R"(, "seed": 1.5)")) == "t.json:/seed: expected an integer, got 1.5");
  CHECK(MessageOf(Doc(R"(, "seed": "7")")) == "t.json:/seed: expected an integer, got a string");
  CHECK(MessageOf(Doc(R"(, "horizon_s": -10)")) == "t.json:/horizon_s: must be >= 0");
  std::string array_classes = Doc();
  const std::string classes = R"("job_classes": {"train": {"run_s": 10}})";
  array_classes.replace(array_classes.find(classes), classes.size(), R"("job_classes": [])");
  CHECK(MessageOf(array_classes) == "t.json:/job_classes: expected an object, got an array");
}

TEST_CASE("seed and horizon are read as given", "[io]") {
  Result<ScenarioFile> loaded =
      ParseScenarioText(Doc(R"(, "seed": 18446744073709551615, "horizon_s": 0.25)"), "t.json");
  REQUIRE(loaded.ok());
  CHECK(loaded.value().variants[0].second.seed == 18446744073709551615ull);
  CHECK(loaded.value().variants[0].second.horizon == SimTime::Millis(250));
}

TEST_CASE("an unknown policy lists the registered ones", "[io]") {
  CHECK(MessageOf(Doc(R"(, "policy": {"name": "fifo"})")) ==
        "t.json:/policy/name: unknown policy 'fifo' (valid: first-fit, best-fit, spread, "
        "most-allocated, least-allocated, random, dot-product, gpu-clustering, gpu-packing, "
        "best-fit-share, fgd, mig-first-fit, mig-best-fit, mig-fgd, scored)");
  CHECK(MessageOf(Doc(R"(, "policy": {})")) == "t.json:/policy: missing required field 'name'");
}

TEST_CASE("an error inside a variant names the variant and points into the merged document",
          "[io]") {
  const Status error = ErrorOf(Doc(R"(, "variants": {
      "ok": {},
      "bad": {"cluster": {"nodes": {"a": {"count": 0}}}}})"));
  CHECK(error.code() == StatusCode::kInvalidArgument);
  CHECK(error.location().json_pointer == "/cluster/nodes/a/count");
  CHECK(error.message() == "variant 'bad': must be >= 1");
  CHECK(MessageOf(Doc(R"(, "variants": {"v": {"policy": {"name": "nope"}}})")) ==
        "t.json:/policy/name: variant 'v': unknown policy 'nope' (valid: first-fit, best-fit, "
        "spread, most-allocated, least-allocated, random, dot-product, gpu-clustering, "
        "gpu-packing, best-fit-share, fgd, mig-first-fit, mig-best-fit, mig-fgd, scored)");
}

TEST_CASE("an error the base document has on its own is not blamed on a variant", "[io]") {
  const std::string text = R"({"name": "t", "description": "d",
    "cluster": {"nodes": {"a": {"type": "p4d.24xl"}}}, "workloads": {},
    "variants": {"one": {}, "two": {}}})";
  const Status error = ErrorOf(text);
  CHECK(error.location().json_pointer == "/cluster/nodes/a/type");
  CHECK(error.message().rfind("unknown node type 'p4d.24xl' (valid: p4d.24xlarge, ", 0) == 0);
}

TEST_CASE("a base that only variants complete is valid", "[io]") {
  Result<ScenarioFile> loaded = ParseScenarioText(R"({"name": "t", "description": "d",
    "workloads": {},
    "variants": {
      "small": {"cluster": {"nodes": {"a": {"type": "p4d.24xlarge"}}}},
      "large": {"cluster": {"nodes": {"a": {"type": "p4d.24xlarge", "count": 4}}}}}})",
                                                  "t.json");
  REQUIRE(loaded.ok());
  CHECK(loaded.value().variants[0].second.cluster.nodes.size() == 1);
  CHECK(loaded.value().variants[1].second.cluster.nodes.size() == 4);
}

TEST_CASE("variants must be plain-named objects that leave the name alone", "[io]") {
  CHECK(MessageOf(Doc(R"(, "variants": {"v": 3})")) ==
        "t.json:/variants/v: expected an object, got a number");
  CHECK(MessageOf(Doc(R"(, "variants": {"v": {"name": "x"}})")) ==
        "t.json:/variants/v/name: a variant cannot change 'name'");
  CHECK(MessageOf(Doc(R"(, "variants": {"v": {"variants": {}}})")) ==
        "t.json:/variants/v/variants: variants cannot be nested");
  CHECK(MessageOf(Doc(R"(, "variants": {"a/b": {}})")) ==
        "t.json:/variants/a~1b: variant name 'a/b' may only contain letters, digits, '.', '_' "
        "and '-'");
}

TEST_CASE("an empty variants object means the single base variant", "[io]") {
  Result<ScenarioFile> loaded = ParseScenarioText(Doc(R"(, "variants": {})"), "t.json");
  REQUIRE(loaded.ok());
  REQUIRE(loaded.value().variants.size() == 1);
  CHECK(loaded.value().variants[0].first == "base");
}

TEST_CASE("variants keep the base's description and name", "[io]") {
  Result<ScenarioFile> loaded =
      ParseScenarioText(Doc(R"(, "variants": {"v": {"description": "other"}})"), "t.json");
  REQUIRE(loaded.ok());
  CHECK(loaded.value().name == "t");
  CHECK(loaded.value().description == "d");
}

}  // namespace migsim

namespace migsim {
namespace {

TEST_CASE("a key written twice in one object is an error at its pointer", "[io]") {
  const char* text = R"({"name": "x", "description": "y",
    "cluster": {"nodes": {"a": {"type": "p4d.24xlarge", "count": 1, "count": 2}}},
    "workloads": {"w": {"kind": "Workflow", "steps": {"s": {"items": [1, {"k": 1, "k": 2}]}}}}})";
  Result<ScenarioFile> r = ParseScenarioText(text, "dup.json");
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().ToString() ==
        "dup.json:/cluster/nodes/a/count: duplicate key (JSON keeps only one of the values)");
}

TEST_CASE("nesting deeper than any scenario needs is an error at the first level too deep",
          "[io]") {
  // 60,000 levels overflowed the stack when a variant's patch was merged.
  std::string deep;
  for (int i = 0; i < 60000; ++i) deep += R"({"a":)";
  deep += "1" + std::string(60000, '}');
  const std::string text = R"({"name": "x", "description": "y", "workloads": {},
    "cluster": {"nodes": {"a": {"type": "p4d.24xlarge"}}}, "variants": {"v": {"z": )" +
                           deep + "}}}";
  Result<ScenarioFile> r = ParseScenarioText(text, "deep.json");
  REQUIRE_FALSE(r.ok());
  std::string pointer = "/variants/v/z";
  for (int i = 0; i < 61; ++i) pointer += "/a";
  CHECK(r.status().ToString() == "deep.json:" + pointer + ": nested deeper than 64 levels");
}

TEST_CASE("a variant name longer than a file name should be is rejected", "[io]") {
  const std::string name(101, 'v');
  CHECK(MessageOf(Doc(R"(, "variants": {")" + name + R"(": {}})")) ==
        "t.json:/variants/" + name + ": variant names become file names: at most 100 characters");
  CHECK(ParseScenarioText(Doc(R"(, "variants": {")" + std::string(100, 'v') + R"(": {}})"),
                          "t.json")
            .ok());
}

TEST_CASE("a number too large for a double is reported at its pointer", "[io]") {
  Result<ScenarioFile> r = ParseScenarioText(
      R"({"name": "x", "description": "y", "horizon_s": [0, 1e400]})", "big.json");
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().ToString() ==
        "big.json:/horizon_s/1: malformed JSON: number overflow parsing '1e400'");
}

TEST_CASE("a key repeated inside an array element is found at its index", "[io]") {
  const char* text = R"({"name": "x", "description": "y", "cluster": {"nodes": {"a": {
    "type": "p4d.24xlarge"}}, "reconfigurations": [{"at_s": 1}, {"at_s": 1, "at_s": 2}]},
    "workloads": {}})";
  Result<ScenarioFile> r = ParseScenarioText(text, "dup.json");
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().location().json_pointer == "/cluster/reconfigurations/1/at_s");
}

}  // namespace
}  // namespace migsim
