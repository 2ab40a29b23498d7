// Manifest values as JSON with their places (manifest_json.h).

#include "sim/io/k8s/manifest_json.h"

#include <algorithm>
#include <charconv>

#include "sim/io/input_limits.h"

namespace migsim::k8s {
namespace {

using io::Json;

// Deeper than any object read this way: a bound on the recursion of ToJson.
constexpr int kMaxDepth = 32;

Json Scalar(const YAML::Node& yaml) {
  const std::string& text = yaml.Scalar();
  if (yaml.Tag() == "!") return text;  // quoted
  const char* end = text.data() + text.size();
  int64_t integer = 0;
  if (auto r = std::from_chars(text.data(), end, integer); r.ec == std::errc() && r.ptr == end) {
    return integer;
  }
  double number = 0;
  if (auto r = std::from_chars(text.data(), end, number); r.ec == std::errc() && r.ptr == end) {
    return number;
  }
  if (text == "true" || text == "false") return text == "true";
  return text;
}

}  // namespace

const ManifestPlace* PlacedJson::PlaceOf(const std::string& pointer) const {
  const std::pair<std::string, ManifestPlace>* best = nullptr;
  for (const auto& entry : places) {
    if (io::PointerStartsWith(pointer, entry.first) &&
        (best == nullptr || entry.first.size() > best->first.size())) {
      best = &entry;
    }
  }
  return best != nullptr ? &best->second : nullptr;
}

Json ManifestJsonBuilder::ToJson(const ManifestNode& node, const std::string& pointer, int depth) {
  const int64_t most = io::CurrentInputLimits().yaml_nodes;
  if (++values_ > most) {
    if (values_ == most + 1) {
      node.Fail(log_, "the object expands to more than " + std::to_string(most) +
                          " values (YAML aliases repeat a value wherever they are used)" +
                          io::RaiseHint("yaml-nodes"));
    }
    return Json();
  }
  Place(pointer, node.place());
  if (depth > kMaxDepth) {
    node.Fail(log_, "nested too deeply");
    return Json();
  }
  const YAML::Node& yaml = node.yaml();
  if (yaml.IsMap()) {
    Json out = Json::object();
    for (const std::string& key : node.Keys(log_)) {
      out[key] = ToJson(node[key], pointer + "/" + io::EscapePointerToken(key), depth + 1);
    }
    return out;
  }
  if (yaml.IsSequence()) {
    Json out = Json::array();
    const std::vector<ManifestNode> elements = node.Elements(log_);
    for (size_t i = 0; i < elements.size(); ++i) {
      out.push_back(ToJson(elements[i], pointer + "/" + std::to_string(i), depth + 1));
    }
    return out;
  }
  return node.present() ? Scalar(yaml) : Json();
}

void ManifestJsonBuilder::Place(const std::string& pointer, const ManifestPlace& place) {
  out_->places.emplace_back(pointer, place);
}

void ManifestJsonBuilder::CopyMembers(const ManifestNode& node,
                                      std::initializer_list<std::string_view> skip,
                                      const std::string& pointer, Json* out) {
  for (const std::string& key : node.Keys(log_)) {
    if (std::find(skip.begin(), skip.end(), key) != skip.end()) continue;
    (*out)[key] = ToJson(node[key], pointer + "/" + io::EscapePointerToken(key));
  }
}

}  // namespace migsim::k8s
