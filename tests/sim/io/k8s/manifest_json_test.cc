// Manifest objects read as JSON (sim/io/k8s/manifest_json.h): YAML aliases repeat a value
// wherever they are used, so a few lines of anchors ("billion laughs") expand to millions
// of values; past the yaml-nodes limit the object is refused at its YAML path.

#include <catch2/catch.hpp>
#include <string>

#include "sim/io/k8s/manifest_objects.h"
#include "tests/support/scoped_limit.h"

namespace migsim {
namespace {

// A DeviceClass whose selectors are `levels` lists of ten, each of ten aliases of the one
// before: 10^levels values from a few hundred bytes.
std::string LaughingDeviceClass(int levels) {
  std::string yaml =
      "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: lol}\nspec:\n"
      "  selectors:\n  - &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int level = 1; level < levels; ++level) {
    const std::string alias = "*l" + std::to_string(level - 1);
    yaml += "  - &l" + std::to_string(level) + " [" + alias;
    for (int i = 1; i < 10; ++i) yaml += ", " + alias;
    yaml += "]\n";
  }
  return yaml;
}

}  // namespace

TEST_CASE("a manifest object whose aliases expand past the limit is refused at its YAML path",
          "[io][k8s][limits]") {
  test::ScopedLimit tiny("yaml-nodes=1000");
  CHECK(k8s::ParseManifests(LaughingDeviceClass(2), "k8s/lol.yaml").ok());  // 121 values
  const Result<k8s::ManifestSet> laughs = k8s::ParseManifests(LaughingDeviceClass(4), "k8s/lol.yaml");
  REQUIRE_FALSE(laughs.ok());
  CHECK(laughs.status().ToString() ==
        "k8s/lol.yaml: document 1: spec.selectors[2][7][8][9] (line 6): the object expands to "
        "more than 1000 values (YAML aliases repeat a value wherever they are used) (raise it "
        "with --limit yaml-nodes=N)");
}

}  // namespace migsim
