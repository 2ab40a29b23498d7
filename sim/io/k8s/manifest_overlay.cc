#include "sim/io/k8s/manifest_overlay.h"

#include <algorithm>

#include "sim/io/input_limits.h"
#include "sim/io/k8s/device_plugin_config_map.h"
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

// One withParam's items: a count n (items "0" .. "n-1", as a Workflow's fan_out) or a list
// of strings and numbers (as its items).
std::vector<std::string> ReadParam(LoadContext* ctx, const JsonRef& ref) {
  std::vector<std::string> items;
  if (ref.value().is_number_integer()) {
    const int64_t n = ReadInt(ctx, ref, 1, CurrentInputLimits().pods_per_field).value_or(0);
    for (int64_t i = 0; i < n && ctx->ok(); ++i) items.push_back(std::to_string(i));
    return items;
  }
  if (!ref.value().is_array()) {
    ctx->Fail(ref.pointer(), "expected a count or a list of items, got " + TypeName(ref.value()));
    return items;
  }
  return LoadWorkflowItems(ctx, ref);
}

ObjectOverlay ReadObject(LoadContext* ctx, const JsonRef& ref) {
  ObjectReader r(ctx, ref, {"at_s", "scale", "step_delay_s", "params"});
  ObjectOverlay out;
  out.pointer = ref.pointer();
  out.at = r.Seconds("at_s", SimTime::Zero());
  if (r.Has("scale") && ctx->ok()) out.scale = LoadScale(ctx, r.Field("scale"), out.at);
  if (r.Has("step_delay_s")) out.step_delay = r.Seconds("step_delay_s", SimTime::Zero());
  if (r.Has("params") && ctx->ok() && ExpectNamedObject(ctx, r.Field("params"), "step")) {
    const JsonRef params = r.Field("params");
    for (const auto& [step, value] : params.value().items()) {
      out.params[step] = ReadParam(ctx, params.Member(step));
    }
  }
  return out;
}

}  // namespace

// Greedy, backtracking only to the last '*': O(pattern x text) at worst, whatever the
// number of stars (the recursive form is exponential in them).
bool GlobMatches(std::string_view pattern, std::string_view text) {
  size_t p = 0, t = 0;
  size_t star = std::string_view::npos, resume = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (p < pattern.size() && pattern[p] == text[t]) {
      ++p;
      ++t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
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
  ObjectReader r(ctx, ref, {"job_classes", "objects", "device_plugin"});
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
  if (r.Has("device_plugin") && ctx->ok()) {
    out.device_plugin = ReadDevicePluginOverlay(ctx, r.Field("device_plugin"));
  }
  return out;
}

}  // namespace migsim::io
