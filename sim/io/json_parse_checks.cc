#include "sim/io/json_parse_checks.h"

namespace migsim::io {

bool JsonParseChecks::operator()(int, Json::parse_event_t event, Json& parsed) {
  using E = Json::parse_event_t;
  const bool start = event == E::object_start || event == E::array_start;
  const bool end = event == E::object_end || event == E::array_end;
  if (dropped_ > 0) {  // inside a container already dropped: track its nesting only
    if (start) ++dropped_;
    if (end && --dropped_ == 0) ValueDone();
    return false;
  }
  if (start && stack_.size() >= kMaxDepth) {
    if (!too_deep_) too_deep_ = CurrentPointer();
    dropped_ = 1;
    return false;
  }
  switch (event) {
    case E::object_start:
    case E::array_start:
      stack_.emplace_back();
      stack_.back().array = event == E::array_start;
      break;
    case E::key: {
      Frame& top = stack_.back();
      top.key = parsed.get<std::string>();
      if (!top.keys.insert(top.key).second && !duplicate_) duplicate_ = PathTo(top.key);
      break;
    }
    case E::object_end:
    case E::array_end:
      stack_.pop_back();
      ValueDone();
      break;
    case E::value:
      ValueDone();
      break;
  }
  return true;
}

// A value ended inside the innermost container: in an array, the next one starts.
void JsonParseChecks::ValueDone() {
  if (!stack_.empty() && stack_.back().array) ++stack_.back().index;
}

std::string JsonParseChecks::CurrentPointer() const {
  std::string pointer;
  for (const Frame& f : stack_) {
    pointer += "/" + (f.array ? std::to_string(f.index) : EscapePointerToken(f.key));
  }
  return pointer;
}

std::string JsonParseChecks::PathTo(const std::string& key) const {
  std::string pointer;
  for (size_t i = 0; i + 1 < stack_.size(); ++i) {
    const Frame& f = stack_[i];
    pointer += "/" + (f.array ? std::to_string(f.index) : EscapePointerToken(f.key));
  }
  return pointer + "/" + EscapePointerToken(key);
}

}  // namespace migsim::io
