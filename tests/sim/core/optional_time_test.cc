#include "sim/core/optional_time.h"

#include <catch2/catch.hpp>
#include <optional>

namespace migsim {

TEST_CASE("an optional time holds a time or none in the space of one time", "[core]") {
  STATIC_REQUIRE(sizeof(OptionalTime) == sizeof(SimTime));
  const OptionalTime none;
  CHECK_FALSE(none.has_value());
  CHECK_FALSE(none.optional().has_value());
  const OptionalTime zero = SimTime::Zero();
  REQUIRE(zero.has_value());
  CHECK(*zero == SimTime::Zero());
  const OptionalTime hour = std::optional<SimTime>(SimTime::Seconds(3600));
  CHECK(hour.optional() == std::optional<SimTime>(SimTime::Seconds(3600)));
  const OptionalTime from_empty = std::optional<SimTime>();
  CHECK_FALSE(from_empty);
  CHECK(*OptionalTime(SimTime::Max()) == SimTime::Max());
  CHECK(*OptionalTime(SimTime::Micros(-1)) == SimTime::Micros(-1));
}

}  // namespace migsim
