#include "sim/dra/selector.h"

#include <catch2/catch.hpp>
#include <string>

namespace migsim::dra {
namespace {

Device Mig1g5gb() {
  Device d;
  d.name = "gpu-0-mig-1g.5gb-0";
  d.attributes = {{"type", std::string("mig")},
                  {"productName", std::string("A100-SXM4-40GB")},
                  {"profile", std::string("1g.5gb")},
                  {"parentIndex", int64_t{0}}};
  d.capacity = {{"memory", Quantity{4864LL << 20}}};
  return d;
}

bool Matches(const std::string& expression, const Device& device) {
  Result<Selector> selector = Selector::Parse(expression);
  INFO(expression);
  REQUIRE(selector.ok());
  return selector.value().Matches(device);
}

std::string ErrorOf(const std::string& expression) {
  Result<Selector> selector = Selector::Parse(expression);
  REQUIRE_FALSE(selector.ok());
  return selector.status().message();
}

TEST_CASE("selectors compare attributes, capacities and the driver", "[dra]") {
  const Device d = Mig1g5gb();
  CHECK(Matches(R"(device.attributes["gpu.nvidia.com"].productName == "A100-SXM4-40GB")", d));
  CHECK_FALSE(Matches(R"(device.attributes["gpu.nvidia.com"].productName == "H100")", d));
  CHECK(Matches(R"(device.driver == 'gpu.nvidia.com')", d));
  CHECK(Matches(R"(device.attributes["gpu.nvidia.com"].parentIndex < 1)", d));
  CHECK(Matches(R"(device.attributes["gpu.nvidia.com"].profile != "2g.10gb")", d));
  SECTION("quantities compare with compareTo, rounded as the API server does") {
    const std::string memory = R"(device.capacity["gpu.nvidia.com"].memory.compareTo()";
    CHECK(Matches(memory + R"(quantity("4Gi")) >= 0)", d));
    CHECK_FALSE(Matches(memory + R"(quantity("5Gi")) >= 0)", d));
    CHECK(Matches(memory + R"(quantity("4864Mi")) == 0)", d));
    CHECK(Matches(memory + R"(quantity("5G")) > 0)", d));  // 5e9 bytes < 4864 MiB
  }
  SECTION("in lists, &&, || and ! combine") {
    CHECK(Matches(R"(device.attributes["gpu.nvidia.com"].profile in ["1g.5gb", "1g.10gb"])", d));
    CHECK_FALSE(Matches(R"(device.attributes["gpu.nvidia.com"].profile in ["2g.10gb"])", d));
    CHECK(Matches(R"(device.attributes["gpu.nvidia.com"].type == "mig" &&
                     device.attributes["gpu.nvidia.com"].parentIndex in [0, 1])",
                  d));
    CHECK(Matches(R"(device.attributes["gpu.nvidia.com"].type == "gpu" || true)", d));
    CHECK(Matches(R"(!(device.attributes["gpu.nvidia.com"].type == "gpu"))", d));
  }
  SECTION("a missing attribute, another domain or a type mismatch does not match") {
    CHECK_FALSE(Matches(R"(device.attributes["gpu.nvidia.com"].uuid == "GPU-1")", d));
    CHECK_FALSE(Matches(R"(device.attributes["example.com"].profile == "1g.5gb")", d));
    CHECK_FALSE(Matches(R"(device.attributes["gpu.nvidia.com"].parentIndex == "0")", d));
    CHECK_FALSE(Matches(R"(!(device.attributes["gpu.nvidia.com"].uuid == "GPU-1"))", d));
  }
}

TEST_CASE("selectors outside the supported subset are refused with the construct named", "[dra]") {
  CHECK(ErrorOf(R"(device.attributes["gpu.nvidia.com"].uuid.matches("^GPU"))") ==
        R"(selector 'device.attributes["gpu.nvidia.com"].uuid.matches("^GPU")': unsupported )"
        "construct 'matches' at column 42 (migsim supports device.driver, "
        "device.attributes[...], device.capacity[...], literals, quantity(), compareTo(), "
        "== != < <= > >=, in [...], &&, || and !)");
  CHECK(ErrorOf(R"(device.allowMultipleAllocations)")
            .starts_with("selector 'device.allowMultipleAllocations': unsupported construct "
                         "'device.allowMultipleAllocations' at column 8"));
  CHECK(ErrorOf(R"(device.attributes["d"].index + 1 > 2)")
            .find("unsupported construct '+' at "
                  "column 30") != std::string::npos);
  CHECK(ErrorOf(R"(semver("1.2.3") > 0)").find("'semver' at column 1") != std::string::npos);
  CHECK(ErrorOf(R"(true ? true : false)").find("'?' at column 6") != std::string::npos);
  CHECK(ErrorOf(R"(device.attributes["d"].x == "a)") ==
        R"(selector 'device.attributes["d"].x == "a': unterminated string literal at column 29)");
  CHECK(ErrorOf(R"((device.driver == "a")") ==
        R"(selector '(device.driver == "a"': expected ')' but the expression ended)");
  CHECK(ErrorOf(R"(device.capacity["d"].memory.compareTo(quantity("ten")) > 0)") ==
        R"(selector 'device.capacity["d"].memory.compareTo(quantity("ten")) > 0': 'ten' is not )"
        "a quantity at column 39");
  CHECK(ErrorOf(R"("gpu")") == R"(selector '"gpu"': the expression is not a condition)");
  CHECK(ErrorOf("") == "selector '': unexpected end of expression");
}

TEST_CASE("deeply nested or overlong selectors are refused, not a stack overflow", "[dra]") {
  // Found by the dra_selector fuzz target (fuzz/corpus/dra_selector/regress-deep-nesting.cel):
  // some thousands of '(' and '!' overflowed the parser's stack.
  const std::string deep = std::string(65, '(') + "true" + std::string(65, ')');
  CHECK(ErrorOf(deep) == "selector '" + deep + "': nested more than 64 levels deep at column 66");
  std::string nots;
  for (int i = 0; i < 1000; ++i) nots += "! ";
  CHECK(ErrorOf(nots + "true").find("nested more than 64 levels deep at column 130") !=
        std::string::npos);
  const std::string nested = std::string(64, '(') + "true" + std::string(64, ')');
  CHECK(Selector::Parse(nested).ok());
  std::string chain = "true";
  while (chain.size() <= 10 * 1024) chain += " && true";
  CHECK(ErrorOf(chain) == "selector '" + chain.substr(0, 40) +
                              "...': " + std::to_string(chain.size()) +
                              " bytes, more than Kubernetes' limit of 10240");
}

TEST_CASE("quantities parse with binary and decimal suffixes, rounding up", "[dra]") {
  CHECK(ParseQuantity("10Gi").value().value == 10LL << 30);
  CHECK(ParseQuantity("1.5Ki").value().value == 1536);
  CHECK(ParseQuantity("5G").value().value == 5'000'000'000);
  CHECK(ParseQuantity("7").value().value == 7);
  CHECK(ParseQuantity("0.1").value().value == 1);
  CHECK_FALSE(ParseQuantity("Gi").ok());
  CHECK_FALSE(ParseQuantity("10GB").ok());
  CHECK_FALSE(ParseQuantity("99999999999Ei").ok());
}

}  // namespace
}  // namespace migsim::dra
