// Telling a scenario, a sweep and a plan file apart, as schema/schema_files.py does: by the
// "$schema" reference, else by the members only one kind has.

#include "sim/io/document_kind.h"

#include <catch2/catch.hpp>
#include <string>

namespace migsim {
namespace {

DocumentKind KindOf(const std::string& text, const std::string& label = "f.json") {
  Result<DocumentKind> kind = DocumentKindOf(text, label);
  INFO(text);
  REQUIRE(kind.ok());
  return kind.value();
}

std::string ErrorOf(const std::string& text) {
  Result<DocumentKind> kind = DocumentKindOf(text, "f.json");
  REQUIRE(!kind.ok());
  return kind.status().ToString();
}

}  // namespace

TEST_CASE("a file's $schema names its kind, whatever its members", "[io][schema]") {
  CHECK(KindOf(R"({"$schema": "../../schema/sweep.schema.json", "cluster": {}})") ==
        DocumentKind::kSweep);
  CHECK(KindOf(R"({"$schema": "https://example.org/x/plan.schema.json", "axes": {}})") ==
        DocumentKind::kPlan);
  CHECK(KindOf(R"({"$schema": "scenario.schema.json", "configurations": {}})") ==
        DocumentKind::kScenario);
}

TEST_CASE("without a $schema naming a kind, the members only one kind has decide",
          "[io][schema]") {
  CHECK(KindOf(R"({"name": "s", "scenario": "s.json", "axes": {"/seed": [1, 2]}})") ==
        DocumentKind::kSweep);
  CHECK(KindOf(R"({"scenario": {"name": "inline"}, "points": []})") == DocumentKind::kSweep);
  CHECK(KindOf(R"({"$schema": "other.json", "scenario": "s.json", "configurations": {}})") ==
        DocumentKind::kPlan);
  CHECK(KindOf(R"({"$schema": 7, "name": "t", "cluster": {}})") == DocumentKind::kScenario);
  CHECK(KindOf(R"({"name": "t", "manifests": ["m.yaml"]})") == DocumentKind::kScenario);
  // Its loader says what is missing.
  CHECK(KindOf(R"({"name": "t"})") == DocumentKind::kScenario);
  CHECK(KindOf("[1, 2]") == DocumentKind::kScenario);
  CHECK(KindOf("{not json") == DocumentKind::kScenario);
  // Only scenarios may be YAML.
  CHECK(KindOf("scenario: s.json\naxes: {}\n", "f.yaml") == DocumentKind::kScenario);
}

TEST_CASE("a file with two kinds' members, or a scenario member alone, is refused naming them",
          "[io][schema]") {
  CHECK(ErrorOf(R"({"name": "x", "cluster": {}, "axes": {}})") ==
        "f.json: cannot tell whether this is a scenario or a sweep file: it has \"cluster\" (a "
        "scenario's) and \"axes\" (a sweep's); name its kind with \"$schema\" (the path of "
        "schema/scenario.schema.json, sweep.schema.json or plan.schema.json)");
  CHECK_THAT(ErrorOf(R"({"scenario": "s.json", "points": [], "configurations": {}})"),
             Catch::StartsWith("f.json: cannot tell whether this is a sweep or a plan file: it "
                               "has \"points\" (a sweep's) and \"configurations\" (a plan's)"));
  CHECK_THAT(ErrorOf(R"({"name": "x", "scenario": "s.json"})"),
             Catch::StartsWith("f.json: cannot tell whether this is a sweep or a plan file: it "
                               "has \"scenario\" but neither \"axes\" nor \"points\" (a "
                               "sweep's) nor \"configurations\" (a plan's)"));
}

}  // namespace migsim
