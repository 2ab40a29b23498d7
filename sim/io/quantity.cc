#include "sim/io/quantity.h"

#include <array>
#include <cctype>
#include <limits>
#include <optional>
#include <string>

namespace migsim::io {
namespace {

// value = digits x 10^exp10 x binary. Kept exact: doubles would turn "0.1" cores into
// 100.00000000000001 millicores and round it up to 101.
struct Decimal {
  uint64_t digits = 0;
  int exp10 = 0;
  uint64_t binary = 1;
};

constexpr int kMaxSignificantDigits = 18;
constexpr int kMaxFractionDigits = 9;
constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

Status Invalid(std::string_view text) {
  return Status::InvalidArgument("invalid quantity '" + std::string(text) +
                                 "' (examples: 500m, 2, 512Mi, 1.5Gi, 1G)");
}

// Reads "123.45" from the front of `rest`; false when there is no digit at all.
bool ReadMantissa(std::string_view* rest, Decimal* out, bool* too_precise) {
  int significant = 0, fraction = 0;
  bool any_digit = false, after_point = false;
  size_t i = 0;
  for (; i < rest->size(); ++i) {
    const char c = (*rest)[i];
    if (c == '.' && !after_point) {
      after_point = true;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(c))) break;
    any_digit = true;
    if (out->digits == 0 && c == '0' && !after_point) continue;  // leading zeros
    if (++significant > kMaxSignificantDigits) *too_precise = true;
    if (after_point && ++fraction > kMaxFractionDigits) *too_precise = true;
    out->digits = out->digits * 10 + static_cast<uint64_t>(c - '0');
  }
  out->exp10 = -fraction;
  rest->remove_prefix(i);
  return any_digit;
}

// "e3", "E-2": a decimal exponent (a lone "E" is the exa suffix).
std::optional<int> ReadExponent(std::string_view suffix) {
  if (suffix.size() < 2 || (suffix[0] != 'e' && suffix[0] != 'E')) return std::nullopt;
  std::string_view number = suffix.substr(1);
  bool negative = number[0] == '-';
  if (number[0] == '-' || number[0] == '+') number.remove_prefix(1);
  if (number.empty() || number.size() > 3) return std::nullopt;
  int value = 0;
  for (char c : number) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return negative ? -value : value;
}

// Applies the suffix to `out`; false when it is not one.
bool ApplySuffix(std::string_view suffix, Decimal* out) {
  static constexpr std::array<std::string_view, 6> kBinary = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  static constexpr std::array<std::pair<std::string_view, int>, 10> kDecimal = {{{"", 0},
                                                                                 {"n", -9},
                                                                                 {"u", -6},
                                                                                 {"m", -3},
                                                                                 {"k", 3},
                                                                                 {"M", 6},
                                                                                 {"G", 9},
                                                                                 {"T", 12},
                                                                                 {"P", 15},
                                                                                 {"E", 18}}};
  for (size_t i = 0; i < kBinary.size(); ++i) {
    if (suffix != kBinary[i]) continue;
    out->binary = uint64_t{1} << (10 * (i + 1));
    return true;
  }
  for (const auto& [name, exponent] : kDecimal) {
    if (suffix != name) continue;
    out->exp10 += exponent;
    return true;
  }
  std::optional<int> exponent = ReadExponent(suffix);
  if (exponent) out->exp10 += *exponent;
  return exponent.has_value();
}

Result<Decimal> ParseQuantity(std::string_view text) {
  std::string_view rest = text;
  if (!rest.empty() && rest[0] == '-') return Status::InvalidArgument("must be >= 0");
  if (!rest.empty() && rest[0] == '+') rest.remove_prefix(1);
  Decimal value;
  bool too_precise = false;
  if (!ReadMantissa(&rest, &value, &too_precise) || !ApplySuffix(rest, &value)) {
    return Invalid(text);
  }
  if (too_precise) {
    return Status::InvalidArgument("quantity '" + std::string(text) + "' has too many digits");
  }
  return value;
}

bool MultiplyChecked(uint64_t a, uint64_t b, uint64_t* out) {
  if (a != 0 && b > kMax / a) return false;
  *out = a * b;
  return true;
}

// ceil(value x 10^scale10 / divisor), or an error when it does not fit an int64.
Result<int64_t> CeilScaled(std::string_view text, const Decimal& value, int scale10,
                           uint64_t divisor) {
  const Status too_large =
      Status::InvalidArgument("quantity '" + std::string(text) + "' is too large");
  uint64_t numerator = 0, denominator = divisor;
  if (!MultiplyChecked(value.digits, value.binary, &numerator)) return too_large;
  for (int e = value.exp10 + scale10; e > 0; --e) {
    if (!MultiplyChecked(numerator, 10, &numerator)) return too_large;
  }
  for (int e = value.exp10 + scale10; e < 0; ++e) {
    // A denominator past 2^64 means the value is below one unit: it rounds up to 1.
    if (!MultiplyChecked(denominator, 10, &denominator)) return int64_t{numerator > 0 ? 1 : 0};
  }
  const uint64_t result = numerator / denominator + (numerator % denominator != 0 ? 1 : 0);
  if (result > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return too_large;
  return static_cast<int64_t>(result);
}

}  // namespace

Result<int64_t> ParseCpuMilli(std::string_view quantity) {
  Result<Decimal> value = ParseQuantity(quantity);
  if (!value.ok()) return value.status();
  return CeilScaled(quantity, value.value(), 3, 1);
}

Result<int64_t> ParseMemoryMib(std::string_view quantity) {
  Result<Decimal> value = ParseQuantity(quantity);
  if (!value.ok()) return value.status();
  return CeilScaled(quantity, value.value(), 0, uint64_t{1} << 20);
}

}  // namespace migsim::io
