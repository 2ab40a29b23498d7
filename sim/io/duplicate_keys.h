#pragma once
// Finds keys repeated inside one JSON object while the text is parsed. nlohmann keeps
// one of the values silently; a scenario with "count" written twice must be an error.

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sim/io/json_reader.h"

namespace migsim::io {

class DuplicateKeyFinder {
 public:
  // The nlohmann parser callback. Always keeps the value.
  bool operator()(int depth, Json::parse_event_t event, Json& parsed);

  // The JSON pointer of the first repeated key, when there was one.
  const std::optional<std::string>& duplicate() const { return duplicate_; }

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
  std::optional<std::string> duplicate_;
};

}  // namespace migsim::io
