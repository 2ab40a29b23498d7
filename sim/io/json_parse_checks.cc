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

namespace {

// The SAX handler of ParseJsonLinear: nlohmann's parser calls these by name.
class LinearDomBuilder {
 public:
  explicit LinearDomBuilder(JsonParseChecks* checks) : checks_(checks) {}
  Json& root() { return root_; }

  bool null() { return Value(Json(nullptr)); }
  bool boolean(bool v) { return Value(Json(v)); }
  bool number_integer(Json::number_integer_t v) { return Value(Json(v)); }
  bool number_unsigned(Json::number_unsigned_t v) { return Value(Json(v)); }
  bool number_float(Json::number_float_t v, const Json::string_t&) { return Value(Json(v)); }
  bool string(Json::string_t& v) { return Value(Json(std::move(v))); }
  bool binary(Json::binary_t& v) { return Value(Json::binary(std::move(v))); }
  bool start_object(std::size_t) { return Start(Json::object(), Json::parse_event_t::object_start); }
  bool start_array(std::size_t) { return Start(Json::array(), Json::parse_event_t::array_start); }
  bool end_object() { return End(Json::parse_event_t::object_end); }
  bool end_array() { return End(Json::parse_event_t::array_end); }
  bool key(Json::string_t& k) {
    Json key(k);
    (*checks_)(Depth(), Json::parse_event_t::key, key);
    key_ = std::move(k);
    return true;
  }
  template <typename Exception>
  bool parse_error(std::size_t, const std::string&, const Exception& ex) {
    throw ex;
  }

 private:
  int Depth() const { return static_cast<int>(stack_.size()); }

  // Where a new value goes: the root, an array's end or an object's new member (appended:
  // the search ordered_map's insertion does is the quadratic step this avoids).
  Json* Place(Json value) {
    if (stack_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    Json* parent = stack_.back();
    if (parent == nullptr) return nullptr;  // inside a dropped container
    if (parent->is_array()) {
      auto& array = parent->get_ref<Json::array_t&>();
      array.push_back(std::move(value));
      return &array.back();
    }
    auto& members = static_cast<Json::object_t::Container&>(parent->get_ref<Json::object_t&>());
    members.emplace_back(std::move(key_), std::move(value));
    return &members.back().second;
  }

  bool Value(Json value) {
    if ((*checks_)(Depth(), Json::parse_event_t::value, value)) Place(std::move(value));
    return true;
  }

  bool Start(Json empty, Json::parse_event_t event) {
    Json unused;
    const bool keep = (*checks_)(Depth(), event, unused);
    stack_.push_back(keep ? Place(std::move(empty)) : nullptr);
    return true;
  }

  bool End(Json::parse_event_t event) {
    Json* done = stack_.back();
    stack_.pop_back();
    Json unused;
    (*checks_)(Depth(), event, done != nullptr ? *done : unused);
    return true;
  }

  JsonParseChecks* checks_;
  Json root_;
  std::vector<Json*> stack_;  // the open containers; null: dropped
  std::string key_;
};

}  // namespace

Json ParseJsonLinear(std::string_view text, JsonParseChecks* checks) {
  LinearDomBuilder builder(checks);
  Json::sax_parse(text.begin(), text.end(), &builder);
  return std::move(builder.root());
}

}  // namespace migsim::io
