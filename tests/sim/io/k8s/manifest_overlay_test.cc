// The overlay's image globs: '*' matches any run of characters.
#include <catch2/catch.hpp>
#include <string>

#include "sim/io/k8s/manifest_overlay.h"

namespace migsim::io {
namespace {

TEST_CASE("an image glob's stars match any run of characters, and nothing else does",
          "[io][k8s]") {
  CHECK(GlobMatches("nvidia/cuda:*", "nvidia/cuda:12.2-base"));
  CHECK(GlobMatches("*", ""));
  CHECK(GlobMatches("*cuda*", "nvcr.io/nvidia/cuda:12"));
  CHECK(GlobMatches("a*b*c", "abbbc"));
  CHECK(GlobMatches("bert", "bert"));
  CHECK_FALSE(GlobMatches("bert", "bert-large"));
  CHECK_FALSE(GlobMatches("a*b*c", "abbb"));
  CHECK_FALSE(GlobMatches("*:11", "nvidia/cuda:12"));
}

// The recursive form took time exponential in the stars: this never ended (a CTest
// timeout fails it).
TEST_CASE("an image glob with many stars against a long text is answered", "[io][k8s]") {
  const std::string pattern = std::string(30, '*') + "b";
  CHECK_FALSE(GlobMatches(pattern, std::string(5000, 'a')));
  CHECK(GlobMatches(pattern, std::string(5000, 'a') + "b"));
}

}  // namespace
}  // namespace migsim::io
