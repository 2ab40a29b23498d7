#pragma once
// Text helpers for messages and names.

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <string>
#include <vector>

namespace migsim {

// The columns `text` takes on a terminal: its UTF-8 characters, so that tables align cells
// holding "\u00b1" (two bytes, one column). Every character counts as one column.
inline size_t TerminalColumns(const std::string& text) {
  return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

// "a, b, c": the form every "(valid: ...)" list in an error message takes.
inline std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

// `v` with exactly `decimals` digits after the point ("%.*f"): the form of every number in
// migsim's tables.
inline std::string FormatFixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// `v` in the fewest digits that read back as it ("12.5", "0.000001"): for messages.
inline std::string FormatShortest(double v) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : FormatFixed(v, 6);
}

// A name made of letters, digits, '.', '_' and '-' only: variant and configuration names
// end up in file names, CSV rows and messages, where anything else would need escaping.
inline bool IsPlainName(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
  });
}

}  // namespace migsim
