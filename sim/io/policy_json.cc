#include "sim/io/policy_json.h"

#include <algorithm>
#include <filesystem>

#include "policies/plugin/plugin_policy.h"
#include "policies/registry.h"

namespace migsim::io {
namespace {

std::vector<std::string> ParamNames(const PolicyInfo& info) {
  std::vector<std::string> names;
  for (const ParamSpec& p : info.params) names.emplace_back(p.name);
  return names;
}

std::vector<std::string> ScoringNames() {
  std::vector<std::string> names;
  for (const PolicyInfo& p : PolicyCatalog()) {
    if (p.scores) names.emplace_back(p.name);
  }
  return names;
}

PolicySpec LoadNamed(LoadContext* ctx, const JsonRef& ref, bool plugin);

std::vector<WeightedPlugin> LoadPlugins(LoadContext* ctx, const JsonRef& ref) {
  std::vector<WeightedPlugin> plugins;
  if (!ExpectArray(ctx, ref)) return plugins;
  if (ref.value().empty()) ctx->Fail(ref.pointer(), "needs at least one score plugin");
  for (size_t i = 0; i < ref.value().size(); ++i) {
    const JsonRef element = ref.Element(i);
    ObjectReader r(ctx, element, {"name", "weight", "params"});
    if (!r.valid()) break;
    WeightedPlugin p;
    p.weight = r.Number("weight", 1.0, 0.0, 1e6);
    if (r.Has("weight") && p.weight == 0) ctx->Fail(r.Field("weight").pointer(), "must be > 0");
    p.plugin = LoadNamed(ctx, element, true);
    plugins.push_back(std::move(p));
  }
  return plugins;
}

std::optional<ParamValue> LoadParam(LoadContext* ctx, const JsonRef& ref, const ParamSpec& spec) {
  switch (spec.kind) {
    case ParamKind::kNumber:
      if (auto v = ReadNumber(ctx, ref, spec.min, spec.max)) return *v;
      return std::nullopt;
    case ParamKind::kInteger:
      if (auto v =
              ReadInt(ctx, ref, static_cast<int64_t>(spec.min), static_cast<int64_t>(spec.max))) {
        return *v;
      }
      return std::nullopt;
    case ParamKind::kBool:
      if (auto v = ReadBool(ctx, ref)) return *v;
      return std::nullopt;
    case ParamKind::kString: {
      std::optional<std::string> v = ReadString(ctx, ref);
      if (v && !spec.choices.empty() &&
          std::find(spec.choices.begin(), spec.choices.end(), *v) == spec.choices.end()) {
        ctx->Fail(ref.pointer(), UnknownNameMessage(spec.name, *v, spec.choices));
        return std::nullopt;
      }
      if (v) return *v;
      return std::nullopt;
    }
    case ParamKind::kScorePlugins:
      return LoadPlugins(ctx, ref);
  }
  return std::nullopt;
}

void LoadParams(LoadContext* ctx, const JsonRef& ref, const PolicyInfo& info, PolicySpec* spec) {
  if (!ExpectObject(ctx, ref)) return;
  const std::vector<std::string> names = ParamNames(info);
  for (const auto& [key, value] : ref.value().items()) {
    const JsonRef member = ref.Member(key);
    const auto it = std::find_if(info.params.begin(), info.params.end(),
                                 [&name = key](const ParamSpec& p) { return p.name == name; });
    if (it == info.params.end()) {
      ctx->Fail(
          member.pointer(),
          names.empty()
              ? "policy '" + std::string(info.name) + "' takes no params"
              : UnknownNameMessage("param of policy '" + std::string(info.name) + "'", key, names));
      return;
    }
    if (std::optional<ParamValue> v = LoadParam(ctx, member, *it)) spec->params[key] = *v;
  }
  for (const ParamSpec& p : info.params) {
    if (p.required && !spec->params.contains(p.name)) {
      ctx->Fail(ref.pointer(), "missing required param '" + p.name + "'");
    }
  }
}

// A registered policy by name; `plugin`: as a plugin of "scored" (it must score).
PolicySpec LoadNamed(LoadContext* ctx, const JsonRef& ref, bool plugin) {
  PolicySpec spec;
  ObjectReader r(ctx, ref,
                 plugin ? std::initializer_list<std::string_view>{"name", "weight", "params"}
                        : std::initializer_list<std::string_view>{"name", "params"});
  if (!r.Require("name")) return spec;
  spec.name = r.String("name");
  const PolicyInfo* info = FindPolicy(spec.name);
  if (info == nullptr || (plugin && !info->scores)) {
    ctx->Fail(r.Field("name").pointer(),
              plugin ? UnknownNameMessage("score plugin", spec.name, ScoringNames())
                     : UnknownNameMessage("policy", spec.name, PolicyNames()));
    return spec;
  }
  if (r.Has("params")) {
    LoadParams(ctx, r.Field("params"), *info, &spec);
    spec.params_json = r.Field("params").value().dump();
  }
  const auto required = std::find_if(info->params.begin(), info->params.end(),
                                     [](const ParamSpec& p) { return p.required; });
  if (required != info->params.end() && !r.Has("params")) {
    ctx->Fail(r.object().pointer(), "policy '" + spec.name + "' needs params." + required->name);
  }
  return WithDefaults(std::move(spec));
}

PolicySpec LoadLibrary(LoadContext* ctx, const JsonRef& ref) {
  PolicySpec spec;
  ObjectReader r(ctx, ref, {"library", "params"});
  if (!r.Require("library") || !ctx->MayReadNamedFile(r.Field("library").pointer())) return spec;
  // Relative to the scenario's directory, and absolute: a run made later, from another
  // working directory (a notebook's os.chdir), loads the same file, and dlopen never
  // searches the system's paths for it (plugin_library.h).
  const std::string named = ctx->ResolvePath(r.NonEmptyString("library"));
  std::error_code ec;
  spec.library = std::filesystem::absolute(named, ec).lexically_normal().string();
  if (ec) ctx->Fail(r.Field("library").pointer(), "'" + named + "': " + ec.message());
  spec.name = r.String("library");
  spec.params_json = "{}";
  if (r.Has("params") && ExpectObject(ctx, r.Field("params"))) {
    spec.params_json = r.Field("params").value().dump();
  }
  if (!ctx->ok()) return spec;
  // Loaded once now so that a bad library or bad params stop the run before it starts.
  Result<std::unique_ptr<Policy>> loaded = LoadPluginPolicy(spec.library, spec.params_json);
  if (!loaded.ok()) {
    const bool params = loaded.status().code() == StatusCode::kParseError;
    ctx->Fail(
        params && r.Has("params") ? r.Field("params").pointer() : r.Field("library").pointer(),
        loaded.status().message());
    return spec;
  }
  spec.name = std::string(loaded.value()->name());
  const ResourceTable none;
  spec.supplies_queue_order = loaded.value()->SuppliedQueueOrder({.resources = &none}) != nullptr;
  return spec;
}

}  // namespace

PolicySpec LoadPolicySpec(LoadContext* ctx, const JsonRef& ref) {
  if (!ExpectObject(ctx, ref)) return {};
  if (ref.value().contains("library")) {
    if (ref.value().contains("name")) {
      ctx->Fail(ref.PointerTo("name"), "give either 'name' or 'library', not both");
      return {};
    }
    return LoadLibrary(ctx, ref);
  }
  return LoadNamed(ctx, ref, false);
}

}  // namespace migsim::io
