// Node selectors and required node affinity (operator In) against a node's labels.

#include "sim/policy/resources.h"

#include <catch2/catch.hpp>

namespace migsim {
namespace {

const Labels kNode = {{"alibabacloud.com/gpu-card-model", "T4"}, {"team", "vision"}};

TEST_CASE("node affinity holds when the node's label carries one of the values", "[policy]") {
  CHECK(MatchesAffinity(kNode, {}));
  CHECK(MatchesAffinity(kNode, {{"alibabacloud.com/gpu-card-model", {"T4", "V100M16"}}}));
  CHECK(MatchesAffinity(kNode, {{"alibabacloud.com/gpu-card-model", {"T4"}},
                                {"team", {"nlp", "vision"}}}));
}

TEST_CASE("node affinity fails on another value or a missing label", "[policy]") {
  CHECK_FALSE(MatchesAffinity(kNode, {{"alibabacloud.com/gpu-card-model", {"V100M16", "V100M32"}}}));
  CHECK_FALSE(MatchesAffinity(kNode, {{"zone", {"a"}}}));
  CHECK_FALSE(MatchesAffinity(kNode, {{"alibabacloud.com/gpu-card-model", {"T4"}},
                                      {"team", {"nlp"}}}));
  CHECK_FALSE(MatchesAffinity({}, {{"team", {"vision"}}}));
}

TEST_CASE("a node selector needs every pair, affinity aside", "[policy]") {
  CHECK(MatchesSelector(kNode, {{"team", "vision"}}));
  CHECK_FALSE(MatchesSelector(kNode, {{"team", "nlp"}}));
}

}  // namespace
}  // namespace migsim
