#include "sim/io/document_kind.h"

#include <array>
#include <vector>

#include "sim/io/json_reader.h"
#include "sim/io/yaml_json.h"

namespace migsim {
namespace {

using io::Json;

constexpr std::array<DocumentKind, 3> kKinds = {DocumentKind::kScenario, DocumentKind::kSweep,
                                                DocumentKind::kPlan};

// The members only documents of `kind` have (schema/schema_files.py, kind_by_members).
std::vector<std::string_view> OwnMembers(DocumentKind kind) {
  switch (kind) {
    case DocumentKind::kScenario:
      return {"cluster", "manifests"};
    case DocumentKind::kSweep:
      return {"axes", "points"};
    case DocumentKind::kPlan:
      return {"configurations"};
  }
  return {};
}

// The kind whose schema file `reference` names by its last path segment, if any.
bool KindByReference(const Json& doc, DocumentKind* kind) {
  const auto it = doc.find("$schema");
  if (it == doc.end() || !it->is_string()) return false;
  const std::string& reference = it->get_ref<const std::string&>();
  const std::string base = reference.substr(reference.find_last_of('/') + 1);
  for (DocumentKind k : kKinds) {
    if (base == std::string(DocumentKindName(k)) + ".schema.json") {
      *kind = k;
      return true;
    }
  }
  return false;
}

// "\"axes\" (a sweep's)": the first of `kind`'s own members `doc` has.
std::string Evidence(const Json& doc, DocumentKind kind) {
  for (std::string_view member : OwnMembers(kind)) {
    if (doc.contains(member)) {
      return "\"" + std::string(member) + "\" (a " + std::string(DocumentKindName(kind)) + "'s)";
    }
  }
  return "";
}

Status Ambiguous(const std::string& file_label, const std::string& what, const std::string& why) {
  return Status::InvalidArgument(
      "cannot tell whether this is " + what + " file: it has " + why +
          "; name its kind with \"$schema\" (the path of schema/scenario.schema.json, "
          "sweep.schema.json or plan.schema.json)",
      {file_label, ""});
}

}  // namespace

std::string_view DocumentKindName(DocumentKind kind) {
  switch (kind) {
    case DocumentKind::kScenario:
      return "scenario";
    case DocumentKind::kSweep:
      return "sweep";
    case DocumentKind::kPlan:
      return "plan";
  }
  return "scenario";
}

Result<DocumentKind> DocumentKindOf(std::string_view text, const std::string& file_label) {
  if (io::IsYamlPath(file_label)) return DocumentKind::kScenario;
  Result<Json> doc = io::ParseJson(text, file_label);
  if (!doc.ok() || !doc.value().is_object()) return DocumentKind::kScenario;
  DocumentKind kind = DocumentKind::kScenario;
  if (KindByReference(doc.value(), &kind)) return kind;
  std::vector<DocumentKind> found;
  std::vector<std::string> evidence;
  for (DocumentKind k : kKinds) {
    std::string e = Evidence(doc.value(), k);
    if (e.empty()) continue;
    found.push_back(k);
    evidence.push_back(std::move(e));
  }
  if (found.size() == 1) return found[0];
  if (found.size() > 1) {
    std::string kinds, members;
    for (size_t i = 0; i < found.size(); ++i) {
      kinds += std::string(i == 0 ? "a " : " or a ") + std::string(DocumentKindName(found[i]));
      members += (i == 0 ? "" : " and ") + evidence[i];
    }
    return Ambiguous(file_label, kinds, members);
  }
  if (doc.value().contains("scenario")) {
    return Ambiguous(file_label, "a sweep or a plan",
                     "\"scenario\" but neither \"axes\" nor \"points\" (a sweep's) nor "
                     "\"configurations\" (a plan's)");
  }
  return DocumentKind::kScenario;
}

}  // namespace migsim
