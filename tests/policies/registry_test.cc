#include "policies/registry.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace migsim {
namespace {

TEST_CASE("the registry knows the Kubernetes-style, the six GPU-sharing, the three MIG "
          "placement policies and the scored composition",
          "[policies][registry]") {
  CHECK(PolicyNames() ==
        std::vector<std::string>{"first-fit", "best-fit", "spread", "most-allocated",
                                 "least-allocated", "random", "dot-product", "gpu-clustering",
                                 "gpu-packing", "best-fit-share", "fgd", "mig-first-fit",
                                 "mig-best-fit", "mig-fgd", "scored"});
  for (const std::string& name : PolicyNames()) {
    std::unique_ptr<Policy> policy = MakePolicy(name);
    REQUIRE(policy != nullptr);
    CHECK(policy->name() == name);
  }
}

TEST_CASE("the registry returns a new policy on every call", "[policies][registry]") {
  std::unique_ptr<Policy> a = MakePolicy("spread");
  std::unique_ptr<Policy> b = MakePolicy("spread");
  CHECK(a.get() != b.get());
}

TEST_CASE("the registry returns nullptr for unknown names", "[policies][registry]") {
  CHECK(MakePolicy("fifo") == nullptr);
  CHECK(MakePolicy("") == nullptr);
  CHECK(MakePolicy("First-Fit") == nullptr);
  CHECK(MakePolicy("first-fit ") == nullptr);
}

}  // namespace
}  // namespace migsim
