#include "sim/core/status.h"

#include <catch2/catch.hpp>

namespace migsim {
namespace {

TEST_CASE("a status names the file and the JSON pointer of the bad element", "[core][status]") {
  Status s = Status::InvalidArgument("unknown MIG profile '9g.80gb'",
                                     {"a.json", "/cluster/nodes/p4d/mig/config"});
  CHECK_FALSE(s.ok());
  CHECK(s.ToString() == "a.json:/cluster/nodes/p4d/mig/config: unknown MIG profile '9g.80gb'");
}

TEST_CASE("a located status keeps its own location over the caller's", "[core][status]") {
  Status inner = Status::InvalidArgument("bad", {"", "/x"});
  CHECK(inner.At({"f.json", "/y"}).ToString() == "f.json:/x: bad");
  CHECK(Status::InvalidArgument("bad").At({"f.json", "/y"}).ToString() == "f.json:/y: bad");
}

TEST_CASE("a result holds either a value or an error", "[core][status]") {
  Result<int> good = 42;
  REQUIRE(good.ok());
  CHECK(good.value() == 42);
  Result<int> bad = Status::NotFound("no such thing");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message() == "no such thing");
}

}  // namespace
}  // namespace migsim
