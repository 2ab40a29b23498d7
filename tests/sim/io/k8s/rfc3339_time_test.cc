// The times of Kubernetes objects (RFC 3339) as Unix seconds, and back.

#include "sim/io/k8s/rfc3339_time.h"

#include <catch2/catch.hpp>

namespace migsim::k8s {

TEST_CASE("RFC 3339 times read as Unix seconds, with fractions and offsets", "[k8s][telemetry]") {
  CHECK(ParseRfc3339("1970-01-01T00:00:00Z") == 0.0);
  CHECK(ParseRfc3339("2025-11-27T00:02:00Z") == 1764201720.0);
  CHECK(ParseRfc3339("2025-11-27T01:02:00+01:00") == 1764201720.0);
  CHECK(ParseRfc3339("2025-11-26T23:32:00-00:30") == 1764201720.0);
  CHECK(ParseRfc3339("2025-11-27T00:02:00.25Z") == 1764201720.25);
  CHECK(ParseRfc3339("2024-02-29T00:00:00Z") == 1709164800.0);  // a leap day
  for (const char* bad : {"", "yesterday", "2025-11-27", "2025-11-27 00:02:00Z",
                          "2025-13-01T00:00:00Z", "2025-02-30T00:00:00Z", "2025-11-27T24:00:00Z",
                          "2025-11-27T00:02:00", "2025-11-27T00:02:00.Z", "2025-11-27T00:02:00+1"}) {
    INFO(bad);
    CHECK_FALSE(ParseRfc3339(bad));
  }
  CHECK(FormatRfc3339(1764201720) == "2025-11-27T00:02:00Z");
  CHECK(FormatRfc3339(1709164800.9) == "2024-02-29T00:00:00Z");
}

}  // namespace migsim::k8s
