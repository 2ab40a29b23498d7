#include "sim/io/k8s/manifest_node.h"

#include <algorithm>
#include <charconv>

namespace migsim::k8s {
namespace {

int LineOf(const YAML::Node& node, int fallback) {
  const YAML::Mark mark = node.Mark();
  return mark.is_null() ? fallback : mark.line + 1;
}

std::string KindOf(const YAML::Node& node) {
  if (node.IsMap()) return "a mapping";
  if (node.IsSequence()) return "a list";
  if (node.IsNull()) return "null";
  return "'" + node.Scalar() + "'";
}

}  // namespace

std::string ManifestPlace::Within() const {
  std::string out = "document " + std::to_string(document);
  if (!path.empty()) out += ": " + path;
  if (line > 0) out += " (line " + std::to_string(line) + ")";
  return out;
}

Status ErrorAt(const ManifestPlace& place, const std::string& message) {
  return Status::InvalidArgument(place.Within() + ": " + message, InputLocation{place.file, ""});
}

void ManifestLog::Fail(const ManifestPlace& place, const std::string& message) {
  if (error_.ok()) error_ = ErrorAt(place, message);
}

void ManifestLog::Warn(const ManifestPlace& place, const std::string& message) {
  std::string text = place.ToString() + ": " + message;
  if (seen_.insert(text).second) warnings_.push_back(std::move(text));
}

ManifestNode::ManifestNode(YAML::Node node, ManifestPlace place)
    : node_(std::move(node)), place_(std::move(place)) {
  place_.line = LineOf(node_, place_.line);
}

ManifestNode ManifestNode::operator[](std::string_view key) const {
  ManifestPlace place = place_;
  place.path += (place.path.empty() ? "" : ".") + std::string(key);
  if (!node_.IsMap()) return ManifestNode(YAML::Node(YAML::NodeType::Undefined), place);
  for (const auto& entry : node_) {
    if (entry.first.IsScalar() && entry.first.Scalar() == key) {
      return ManifestNode(entry.second, place);
    }
  }
  return ManifestNode(YAML::Node(YAML::NodeType::Undefined), place);
}

bool ManifestNode::ExpectMap(ManifestLog* log) const {
  if (node_.IsMap()) return true;
  Fail(log, "expected a mapping, got " + KindOf(node_));
  return false;
}

std::vector<ManifestNode> ManifestNode::Elements(ManifestLog* log) const {
  std::vector<ManifestNode> out;
  if (!present()) return out;
  if (!node_.IsSequence()) {
    Fail(log, "expected a list, got " + KindOf(node_));
    return out;
  }
  for (size_t i = 0; i < node_.size(); ++i) {
    ManifestPlace place = place_;
    place.path += "[" + std::to_string(i) + "]";
    out.emplace_back(node_[i], place);
  }
  return out;
}

std::vector<std::string> ManifestNode::Keys(ManifestLog* log) const {
  std::vector<std::string> keys;
  if (!present() || !ExpectMap(log)) return keys;
  for (const auto& entry : node_) {
    if (!entry.first.IsScalar()) {
      Fail(log, "keys must be strings");
      return {};
    }
    keys.push_back(entry.first.Scalar());
  }
  return keys;
}

std::string ManifestNode::String(ManifestLog* log, std::string fallback) const {
  if (!present()) return fallback;
  if (!node_.IsScalar()) {
    Fail(log, "expected a string, got " + KindOf(node_));
    return fallback;
  }
  return node_.Scalar();
}

int64_t ManifestNode::Int(ManifestLog* log, int64_t fallback, int64_t min, int64_t max) const {
  if (!present()) return fallback;
  const std::string text = String(log);
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  // A quoted "3" is a string to the API server, not an integer.
  if (!node_.IsScalar() || node_.Tag() == "!" || error != std::errc() ||
      end != text.data() + text.size()) {
    if (log->ok() && node_.IsScalar()) Fail(log, "expected an integer, got '" + text + "'");
    return fallback;
  }
  if (value < min || value > max) {
    Fail(log, "must be in " + std::to_string(min) + " .. " + std::to_string(max) + ", got " + text);
    return fallback;
  }
  return value;
}

bool ManifestNode::Bool(ManifestLog* log, bool fallback) const {
  if (!present()) return fallback;
  const std::string text = String(log);
  if (node_.Tag() != "!" &&
      (text == "true" || text == "True" || text == "false" || text == "False")) {
    return text[0] == 't' || text[0] == 'T';
  }
  if (log->ok()) Fail(log, "expected true or false, got '" + text + "'");
  return fallback;
}

size_t ManifestNode::Choice(ManifestLog* log, const std::string& what,
                            std::initializer_list<std::string_view> names) const {
  const std::string text = String(log, std::string(*names.begin()));
  std::string valid;
  size_t index = 0;
  for (std::string_view name : names) {
    if (name == text) return index;
    valid += (valid.empty() ? "" : ", ") + std::string(name);
    ++index;
  }
  if (log->ok()) Fail(log, "unknown " + what + " '" + text + "' (valid: " + valid + ")");
  return 0;
}

Labels ManifestNode::StringMap(ManifestLog* log) const {
  Labels out;
  for (const std::string& key : Keys(log)) {
    std::string value = (*this)[key].String(log);
    out.emplace_back(key, std::move(value));
  }
  std::sort(out.begin(), out.end());
  return out;
}

void WarnEach(const ManifestNode& parent, ManifestLog* log,
              std::initializer_list<std::pair<const char*, const char*>> fields) {
  for (const auto& [field, why] : fields) {
    if (const ManifestNode f = parent[field]; f.present()) f.Warn(log, why);
  }
}

}  // namespace migsim::k8s
