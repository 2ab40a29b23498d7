// YAML scenario files as JSON (yaml_json.h).

#include "sim/io/yaml_json.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <regex>
#include <set>

#include "sim/io/input_limits.h"
#include "sim/io/json_parse_checks.h"
#include "sim/io/yaml_documents.h"

namespace migsim::io {
namespace {

constexpr std::string_view kStrTag = "tag:yaml.org,2002:str";

// A problem found while converting: the message and the YAML line it is at.
struct YamlProblem {
  std::string message;
  int line = 0;
  std::string pointer;  // of the value (or key) at fault
};

int LineOf(const YAML::Node& node) {
  const YAML::Mark mark = node.Mark();
  return mark.is_null() ? 0 : mark.line + 1;
}

// An integer of YAML 1.2's core schema, in `base`, as the narrowest JSON integer that holds
// it (int64, then uint64), or a double beyond both.
Json Integer(std::string_view digits, bool negative, int base) {
  uint64_t magnitude = 0;
  const char* end = digits.data() + digits.size();
  if (auto r = std::from_chars(digits.data(), end, magnitude, base);
      r.ec == std::errc() && r.ptr == end) {
    if (!negative) return magnitude;
    if (magnitude <= uint64_t{1} << 63) return static_cast<int64_t>(0 - magnitude);
  }
  double value = 0;
  for (char c : digits)
    value = value * base + (std::isdigit(c) ? c - '0' : std::tolower(c) - 'a' + 10);
  return negative ? -value : value;
}

// The JSON value of a plain scalar, by YAML 1.2's core schema; nullopt for .inf and .nan.
std::optional<Json> PlainScalar(const std::string& text) {
  static const std::regex kNull("~|null|Null|NULL|");
  static const std::regex kTrue("true|True|TRUE");
  static const std::regex kFalse("false|False|FALSE");
  static const std::regex kDecimal("[-+]?[0-9]+");
  static const std::regex kFloat("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
  static const std::regex kNonFinite("[-+]?(\\.inf|\\.Inf|\\.INF)|\\.nan|\\.NaN|\\.NAN");
  if (std::regex_match(text, kNull)) return Json();
  if (std::regex_match(text, kTrue)) return Json(true);
  if (std::regex_match(text, kFalse)) return Json(false);
  const bool negative = !text.empty() && text[0] == '-';
  const std::string_view unsigned_text =
      std::string_view(text).substr(!text.empty() && (text[0] == '-' || text[0] == '+'));
  if (std::regex_match(text, kDecimal)) return Integer(unsigned_text, negative, 10);
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'o' || text[1] == 'x')) {
    static const std::regex kOctal("0o[0-7]+");
    static const std::regex kHex("0x[0-9a-fA-F]+");
    if (std::regex_match(text, kOctal)) return Integer(text.substr(2), false, 8);
    if (std::regex_match(text, kHex)) return Integer(text.substr(2), false, 16);
  }
  if (std::regex_match(text, kFloat)) {
    double value = 0;
    const char* end = unsigned_text.data() + unsigned_text.size();
    std::from_chars(unsigned_text.data(), end, value);
    if (std::isinf(value)) return std::nullopt;  // 1e400: beyond a double, as JSON's
    return negative ? -value : value;
  }
  if (std::regex_match(text, kNonFinite)) return std::nullopt;
  return Json(text);
}

class Converter {
 public:
  explicit Converter(YamlJson* out) : out_(out) {}

  std::optional<YamlProblem> Convert(const YAML::Node& node, const std::string& pointer,
                                     size_t depth, Json* value) {
    const int64_t most = CurrentInputLimits().yaml_nodes;
    if (++values_ > most) {
      return YamlProblem{"the document expands to more than " + std::to_string(most) +
                             " values (YAML aliases repeat a value wherever they are used)" +
                             RaiseHint("yaml-nodes"),
                         LineOf(node), pointer};
    }
    if (depth > JsonParseChecks::kMaxDepth) {
      return YamlProblem{
          "nested deeper than " + std::to_string(JsonParseChecks::kMaxDepth) + " levels",
          LineOf(node), pointer};
    }
    if (const int line = LineOf(node); line > 0) out_->lines.emplace_back(pointer, line);
    switch (node.Type()) {
      case YAML::NodeType::Map:
        return Mapping(node, pointer, depth, value);
      case YAML::NodeType::Sequence: {
        *value = Json::array();
        for (size_t i = 0; i < node.size(); ++i) {
          Json element;
          if (auto p = Convert(node[i], pointer + "/" + std::to_string(i), depth + 1, &element)) {
            return p;
          }
          value->push_back(std::move(element));
        }
        return std::nullopt;
      }
      case YAML::NodeType::Scalar:
        return Scalar(node, pointer, value);
      default:  // Null (an empty value, ~, null) and Undefined
        *value = Json();
        return std::nullopt;
    }
  }

 private:
  std::optional<YamlProblem> Mapping(const YAML::Node& node, const std::string& pointer,
                                     size_t depth, Json* value) {
    *value = Json::object();
    std::set<std::string> keys;
    for (const auto& member : node) {
      if (!member.first.IsScalar()) {
        return YamlProblem{"a mapping key must be a scalar (JSON keys are strings)",
                           LineOf(member.first), pointer};
      }
      const std::string& key = member.first.Scalar();
      const std::string child = pointer + "/" + EscapePointerToken(key);
      if (!keys.insert(key).second) {
        return YamlProblem{"duplicate key (JSON keeps only one of the values)",
                           LineOf(member.first), child};
      }
      Json element;
      if (auto p = Convert(member.second, child, depth + 1, &element)) return p;
      (*value)[key] = std::move(element);
    }
    return std::nullopt;
  }

  static std::optional<YamlProblem> Scalar(const YAML::Node& node, const std::string& pointer,
                                           Json* value) {
    const std::string& tag = node.Tag();
    if (tag == "!" || tag == kStrTag) {  // quoted, or !!str
      *value = node.Scalar();
      return std::nullopt;
    }
    std::optional<Json> plain = PlainScalar(node.Scalar());
    if (!plain) {
      return YamlProblem{"'" + node.Scalar() + "' is not a finite number, which JSON cannot hold",
                         LineOf(node), pointer};
    }
    *value = std::move(*plain);
    return std::nullopt;
  }

  YamlJson* out_;
  int64_t values_ = 0;
};

Status ProblemAt(const std::string& file_label, const YamlProblem& problem) {
  return Status::InvalidArgument(
      problem.message, {file_label + ":" + std::to_string(problem.line), problem.pointer});
}

}  // namespace

int YamlJson::LineOf(std::string_view pointer) const {
  size_t best = 0;
  int line = 0;
  for (const auto& [p, l] : lines) {
    if (PointerStartsWith(pointer, p) && (line == 0 || p.size() >= best)) {
      best = p.size();
      line = l;
    }
  }
  return line;
}

bool IsYamlPath(std::string_view path) { return path.ends_with(".yaml") || path.ends_with(".yml"); }

Result<Json> ParseScenarioDocument(std::string_view text, const std::string& file_label) {
  if (!IsYamlPath(file_label)) return ParseJson(text, file_label);
  Result<YamlJson> yaml = ParseYamlAsJson(text, file_label);
  if (!yaml.ok()) return yaml.status();
  return std::move(yaml.value().doc);
}

Result<YamlJson> ParseYamlAsJson(std::string_view text, const std::string& file_label) {
  Result<std::vector<YAML::Node>> documents = LoadYamlDocuments(text, file_label);
  if (!documents.ok()) return documents.status();
  // `migsim run scenario.yaml more.yaml k8s/`: the first file is the scenario, the others
  // manifests. A manifest where the scenario goes is told so, not read as a scenario.
  if (!documents.value().empty() && documents.value()[0].IsMap() &&
      documents.value()[0]["apiVersion"] && documents.value()[0]["kind"]) {
    return Status::InvalidArgument(
        "a Kubernetes manifest (its first document has apiVersion and kind) where the scenario "
        "goes: the first file is a scenario, in JSON or YAML; Kubernetes manifests go after it "
        "or in its \"manifests\" (scenarios/README.md, \"Kubernetes manifests\")",
        {file_label, ""});
  }
  if (documents.value().size() != 1) {
    return Status::InvalidArgument("a YAML scenario is one document; this file has " +
                                       std::to_string(documents.value().size()),
                                   {file_label, ""});
  }
  YamlJson out;
  Converter converter(&out);
  if (std::optional<YamlProblem> p = converter.Convert(documents.value()[0], "", 0, &out.doc)) {
    return ProblemAt(file_label, *p);
  }
  return out;
}

}  // namespace migsim::io
