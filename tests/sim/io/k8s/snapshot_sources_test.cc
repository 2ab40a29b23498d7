// SnapshotSources: the generated scenario's members mapped back to snapshot elements.

#include "sim/io/k8s/snapshot_sources.h"

#include <catch2/catch.hpp>

namespace migsim::k8s {

TEST_CASE("a load error's pointer finds the place of the member that contains it",
          "[k8s][snapshot]") {
  SnapshotSources sources;
  sources.Add({"workloads", "a"}, {"pods.json", 1, "items[0]", 3});
  sources.Add({"workloads", "a/b~c"}, {"pods.json", 1, "items[1]", 9});
  sources.Add({"workloads", "a"}, {"pods.json", 2, "items[5]", 40});  // the first one wins
  REQUIRE(sources.Find("/workloads/a/template/requests/cpu") != nullptr);
  CHECK(sources.Find("/workloads/a/template/requests/cpu")->line == 3);
  CHECK(sources.Find("/workloads/a")->path == "items[0]");
  CHECK(sources.Find("/workloads/a~1b~0c/template")->line == 9);
  // Prefixes are whole tokens: "/workloads/ab" is not inside "/workloads/a".
  CHECK(sources.Find("/workloads/ab/template") == nullptr);
  CHECK(sources.Find("/workloads") == nullptr);
  CHECK(sources.Find("") == nullptr);
  CHECK(sources.Find("line 12") == nullptr);
}

TEST_CASE("JSON pointer tokens are escaped as RFC 6901 says", "[k8s][snapshot]") {
  CHECK(JsonPointer({"a/b", "c~d", ""}) == "/a~1b/c~0d/");
  CHECK(JsonPointer({}).empty());
}

}  // namespace migsim::k8s
