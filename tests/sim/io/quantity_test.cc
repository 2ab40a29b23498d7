#include "sim/io/quantity.h"

#include <catch2/catch.hpp>

namespace migsim::io {

TEST_CASE("CPU quantities become millicores, rounded up", "[io]") {
  CHECK(ParseCpuMilli("500m").value() == 500);
  CHECK(ParseCpuMilli("2").value() == 2000);
  CHECK(ParseCpuMilli("0.5").value() == 500);
  CHECK(ParseCpuMilli("0.1").value() == 100);
  CHECK(ParseCpuMilli("+1.5").value() == 1500);
  CHECK(ParseCpuMilli("0.0001").value() == 1);
  CHECK(ParseCpuMilli("1e-05").value() == 1);
  CHECK(ParseCpuMilli("1e3").value() == 1000000);
  CHECK(ParseCpuMilli("100u").value() == 1);
  CHECK(ParseCpuMilli("0").value() == 0);
  CHECK(ParseCpuMilli("1k").value() == 1000000);
}

TEST_CASE("memory quantities become MiB, rounded up", "[io]") {
  CHECK(ParseMemoryMib("512Mi").value() == 512);
  CHECK(ParseMemoryMib("1Gi").value() == 1024);
  CHECK(ParseMemoryMib("1.5Gi").value() == 1536);
  CHECK(ParseMemoryMib("1G").value() == 954);
  CHECK(ParseMemoryMib("1000000").value() == 1);
  CHECK(ParseMemoryMib("1048576").value() == 1);
  CHECK(ParseMemoryMib("1048577").value() == 2);
  CHECK(ParseMemoryMib("1Ti").value() == 1048576);
  CHECK(ParseMemoryMib("1E").value() == 953674316407);
  CHECK(ParseMemoryMib("0.5Ki").value() == 1);
}

TEST_CASE("malformed or out-of-range quantities are rejected with a reason", "[io]") {
  CHECK(ParseCpuMilli("abc").status().message() ==
        "invalid quantity 'abc' (examples: 500m, 2, 512Mi, 1.5Gi, 1G)");
  CHECK_FALSE(ParseCpuMilli("").ok());
  CHECK_FALSE(ParseCpuMilli(".").ok());
  CHECK_FALSE(ParseCpuMilli("1.2.3").ok());
  CHECK_FALSE(ParseMemoryMib("1Gb").ok());
  CHECK_FALSE(ParseMemoryMib("1 Gi").ok());
  CHECK(ParseMemoryMib("-1Gi").status().message() == "must be >= 0");
  CHECK(ParseMemoryMib("100Ei").status().message() == "quantity '100Ei' is too large");
  CHECK(ParseCpuMilli("1e99").status().message() == "quantity '1e99' is too large");
  CHECK(ParseCpuMilli("0.0000000001").status().message() ==
        "quantity '0.0000000001' has too many digits");
}

}  // namespace migsim::io
