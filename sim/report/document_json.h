#pragma once
// The one way a command's --json output is written (as `migsim run --json` writes its
// results): an ordered object, two-space indents, invalid UTF-8 replaced, one newline at the
// end, so that stdout holds exactly one JSON document. For sim/report's JSON writers only:
// nlohmann stays inside sim/io and sim/report (scripts/check_layering.sh).

#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace migsim {

using OrderedJson = nlohmann::ordered_json;

inline std::string JsonDocument(const OrderedJson& root) {
  return root.dump(2, ' ', false, OrderedJson::error_handler_t::replace) + "\n";
}

// A text that may be empty: "" as null (a field the input left out).
inline OrderedJson JsonTextOrNull(const std::string& text) {
  return text.empty() ? OrderedJson(nullptr) : OrderedJson(text);
}

// An optional value: nullopt as null (a figure that does not apply, or was not asked for).
template <typename T>
OrderedJson JsonOrNull(const std::optional<T>& value) {
  return value ? OrderedJson(*value) : OrderedJson(nullptr);
}

// A figure rounded to the microsecond (6 decimals; the engine's resolution), as every --json
// writer prints its figures: stable and free of binary-fraction noise (64116.191999999995
// prints 64116.192).
inline double JsonMicro(double value) { return std::round(value * 1e6) / 1e6; }

// An optional figure: nullopt as null, else JsonMicro's.
inline OrderedJson JsonMicroOrNull(const std::optional<double>& value) {
  return value ? OrderedJson(JsonMicro(*value)) : OrderedJson(nullptr);
}

// A list of lines as a JSON array of strings.
inline OrderedJson JsonStrings(const std::vector<std::string>& lines) {
  OrderedJson out = OrderedJson::array();
  for (const std::string& line : lines) out.push_back(line);
  return out;
}

}  // namespace migsim
