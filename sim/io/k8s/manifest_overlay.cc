#include "sim/io/k8s/manifest_overlay.h"

#include <algorithm>

#include "sim/io/scenario_sections_json.h"

namespace migsim::io {
namespace {

JobClassRule ReadRule(LoadContext* ctx, const JsonRef& ref, const Scenario& scenario) {
  ObjectReader r(ctx, ref, {"image", "label", "name", "job_class"});
  JobClassRule rule;
  if (!r.valid()) return rule;
  const int given = r.Has("image") + r.Has("label") + r.Has("name");
  if (given != 1) {
    ctx->Fail(ref.pointer(), "a rule matches by exactly one of image, label and name");
    return rule;
  }
  if (r.Has("label")) {
    rule.by = JobClassRule::By::kLabel;
    rule.labels = ReadLabels(ctx, r.Field("label"));
  } else {
    rule.by = r.Has("image") ? JobClassRule::By::kImage : JobClassRule::By::kName;
    rule.pattern = r.NonEmptyString(r.Has("image") ? "image" : "name");
  }
  if (r.Require("job_class")) {
    rule.job_class = FindJobClass(ctx, r.Field("job_class"), scenario.job_classes);
  }
  return rule;
}

ObjectOverlay ReadObject(LoadContext* ctx, const JsonRef& ref) {
  ObjectReader r(ctx, ref, {"at_s", "scale"});
  ObjectOverlay out;
  out.pointer = ref.pointer();
  out.at = r.Seconds("at_s", SimTime::Zero());
  if (r.Has("scale") && ctx->ok()) out.scale = LoadScale(ctx, r.Field("scale"), out.at);
  return out;
}

}  // namespace

bool GlobMatches(std::string_view pattern, std::string_view text) {
  const size_t star = pattern.find('*');
  if (star == std::string_view::npos) return pattern == text;
  if (text.substr(0, star) != pattern.substr(0, star)) return false;
  const std::string_view rest = pattern.substr(star + 1);
  for (size_t i = star; i <= text.size(); ++i) {
    if (GlobMatches(rest, text.substr(i))) return true;
  }
  return false;
}

std::optional<JobClassId> ManifestOverlay::JobClassFor(
    const std::string& name, const Labels& labels, const std::vector<std::string>& images) const {
  for (const JobClassRule& rule : rules) {
    bool match = false;
    switch (rule.by) {
      case JobClassRule::By::kImage:
        match = std::any_of(images.begin(), images.end(),
                            [&](const std::string& i) { return GlobMatches(rule.pattern, i); });
        break;
      case JobClassRule::By::kLabel:
        match = MatchesSelector(labels, rule.labels);
        break;
      case JobClassRule::By::kName:
        match = GlobMatches(rule.pattern, name);
        break;
    }
    if (match) return rule.job_class;
  }
  return std::nullopt;
}

ManifestOverlay ReadManifestOverlay(LoadContext* ctx, const JsonRef& ref,
                                    const Scenario& scenario) {
  ObjectReader r(ctx, ref, {"job_classes", "objects"});
  ManifestOverlay out;
  if (r.Has("job_classes") && ExpectArray(ctx, r.Field("job_classes"))) {
    const JsonRef rules = r.Field("job_classes");
    for (size_t i = 0; i < rules.value().size() && ctx->ok(); ++i) {
      out.rules.push_back(ReadRule(ctx, rules.Element(i), scenario));
    }
  }
  if (r.Has("objects") && ctx->ok() && ExpectNamedObject(ctx, r.Field("objects"), "object")) {
    const JsonRef objects = r.Field("objects");
    for (const auto& [name, value] : objects.value().items()) {
      out.objects[name] = ReadObject(ctx, objects.Member(name));
      if (!ctx->ok()) break;
    }
  }
  return out;
}

}  // namespace migsim::io
