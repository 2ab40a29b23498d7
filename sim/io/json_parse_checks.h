#pragma once
// Checks a JSON text while nlohmann parses it, for what the parsed value can no longer
// show: a key repeated inside one object (nlohmann keeps one of the values silently; a
// scenario with "count" written twice must be an error), nesting deeper than any input
// of ours needs (merging patches and reading pointers recurse, and 60,000 levels overflow
// the stack), and where the parser was when it threw (a number too large for a double is
// reported by nlohmann without a position).

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "sim/io/json_reader.h"

namespace migsim::io {

class JsonParseChecks {
 public:
  // Containers nested deeper than this are dropped and reported.
  static constexpr size_t kMaxDepth = 64;

  // The nlohmann parser callback. Keeps every value except containers past kMaxDepth.
  bool operator()(int depth, Json::parse_event_t event, Json& parsed);

  // The JSON pointer of the first repeated key, when there was one.
  const std::optional<std::string>& duplicate() const { return duplicate_; }
  // The JSON pointer of the first container past kMaxDepth, when there was one.
  const std::optional<std::string>& too_deep() const { return too_deep_; }
  // The pointer of the value being parsed now ("" at the top).
  std::string CurrentPointer() const;

 private:
  struct Frame {
    bool array = false;
    size_t index = 0;        // arrays: the element being parsed
    std::string key;         // objects: the member being parsed
    std::set<std::string> keys;
  };
  void ValueDone();
  std::string PathTo(const std::string& key) const;

  std::vector<Frame> stack_;
  size_t dropped_ = 0;  // > 0 while inside a dropped container: its nesting in it
  std::optional<std::string> duplicate_;
  std::optional<std::string> too_deep_;
};

// Builds a document from nlohmann's SAX events with JsonParseChecks' checks, in time linear
// in the text. nlohmann's own DOM parsers are quadratic in the members of one object of an
// ordered_json: each key is inserted with a search of the members before it, and each
// member object that ends scans its parent's members for a discarded value (100,000 variants
// took 24 s to parse). Here a member is appended; a repeated key, which the search would
// have merged, is reported by the checks and the document refused.
// Throws what nlohmann's parser reports (parse_error, out_of_range), as Json::parse does.
Json ParseJsonLinear(std::string_view text, JsonParseChecks* checks);

}  // namespace migsim::io
