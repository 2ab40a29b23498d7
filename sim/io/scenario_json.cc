#include "sim/io/scenario_json.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>
#include <vector>

#include "policies/registry.h"
#include "sim/core/text.h"
#include "sim/io/input_file.h"
#include "sim/io/input_limits.h"
#include "sim/io/json_reader.h"
#include "sim/io/k8s/manifest_scenario.h"
#include "sim/io/k8s/manifest_training.h"
#include "sim/io/policy_json.h"
#include "sim/io/scenario_cost.h"
#include "sim/io/scenario_sections_json.h"
#include "sim/io/schema_reference.h"
#include "sim/io/yaml_json.h"

namespace migsim {
namespace {

// Variant names become file names (pods-<variant>.csv): well under a file system's 255.
constexpr size_t kMaxVariantName = 100;

using io::CurrentInputLimits;
using io::Json;
using io::JsonRef;
using io::LoadContext;
using io::ObjectReader;

constexpr std::array<std::string_view, 21> kTopLevelFields = {"name",
                                                              "description",
                                                              "seed",
                                                              "horizon_s",
                                                              "policy",
                                                              "scheduler",
                                                              "cluster",
                                                              "job_classes",
                                                              "workloads",
                                                              "variants",
                                                              "priority_classes",
                                                              "queueing_theory",
                                                              "pod_disruption_budgets",
                                                              "kueue",
                                                              "faults",
                                                              "fault_processes",
                                                              "manifests",
                                                              "manifest_overlay",
                                                              "device_classes",
                                                              "resource_claims",
                                                              "energy"};

// What is read from the base document before any variant is built.
struct Header {
  std::string name;
  std::string description;
  std::vector<std::pair<std::string, Json>> variants;  // name -> merge patch, file order
  Json base;                                           // the document without "variants"
};

// A policy that draws at random and is not given its own seed draws from the run's
// (registry.h, kPolicySeedParam), so that the scenario's seed decides its choices too.
PolicySpec LoadPolicy(LoadContext* ctx, const ObjectReader& root, uint64_t run_seed) {
  if (!root.Has("policy")) return WithDefaults(PolicySpec{});
  const JsonRef ref = root.Field("policy");
  PolicySpec spec = io::LoadPolicySpec(ctx, ref);
  const Json& json = ref.value();
  const bool seed_given = json.is_object() && json.contains("params") &&
                          json["params"].is_object() &&
                          json["params"].contains(std::string(kPolicySeedParam));
  if (ctx->ok() && !seed_given) SeedPolicyStream(&spec, run_seed);
  return spec;
}

// Deployment pods never end on their own, and one whose pods keep failing keeps
// replacing them: without a horizon such a run would not end.
void RequireHorizonForDeployments(LoadContext* ctx, const Scenario& scenario) {
  if (scenario.horizon != SimTime::Max()) return;
  for (const WorkloadSpec& w : scenario.workloads) {
    if (const auto* d = std::get_if<DeploymentSpec>(&w)) {
      ctx->Fail("/workloads/" + io::EscapePointerToken(d->name),
                "a Deployment runs until deleted: the scenario needs horizon_s");
      return;
    }
  }
}

// What a load is given besides the file: manifests named on the command line, and where
// the manifests' warnings go.
struct LoadExtras {
  std::vector<std::string> manifests;
  std::vector<std::string>* warnings = nullptr;  // null: dropped
  NamedFiles named_files = NamedFiles::kRead;
};

// `manifests` (and the command line's), read once per variant: a variant may change them.
std::optional<k8s::ManifestSet> ReadScenarioManifests(LoadContext* ctx, const ObjectReader& r,
                                                      const LoadExtras& extras) {
  if (r.Has("manifest_overlay") && !r.Has("manifests") && extras.manifests.empty()) {
    ctx->Fail("/manifest_overlay", "there are no manifests to overlay (add 'manifests')");
  }
  if (!ctx->ok() || (!r.Has("manifests") && extras.manifests.empty())) return std::nullopt;
  // Manifests are files the text names: refused with them (a fuzzer's text reads none).
  if (!ctx->MayReadNamedFile(r.Has("manifests") ? "/manifests" : "")) return std::nullopt;
  const std::optional<JsonRef> list =
      r.Has("manifests") ? std::optional(r.Field("manifests")) : std::nullopt;
  std::optional<k8s::ManifestSet> set =
      io::ReadManifests(ctx, list ? &*list : nullptr, extras.manifests);
  if (set && extras.warnings != nullptr) {
    for (const std::string& w : set->warnings) {
      if (std::find(extras.warnings->begin(), extras.warnings->end(), w) ==
          extras.warnings->end()) {
        extras.warnings->push_back(w);
      }
    }
  }
  return set;
}

// One variant's document (without "variants"), fully validated.
Result<Scenario> LoadScenario(const std::string& file, const Json& doc, const LoadExtras& extras) {
  LoadContext ctx(file, extras.named_files);
  ObjectReader r(&ctx, JsonRef(doc, ""), kTopLevelFields);
  if (!r.valid()) return ctx.status();
  r.Require("name");
  r.String("name");
  r.Require("description");
  r.String("description");
  Scenario scenario;
  if (r.Has("seed")) scenario.seed = io::ReadUint64(&ctx, r.Field("seed")).value_or(1);
  scenario.horizon = r.Seconds("horizon_s", SimTime::Max());
  scenario.policy = LoadPolicy(&ctx, r, scenario.seed);
  if (r.Require("cluster") && ctx.ok()) {
    io::LoadCluster(&ctx, r.Field("cluster"), &scenario.cluster);
  }
  if (r.Has("faults") && ctx.ok()) io::LoadFaults(&ctx, r.Field("faults"), &scenario.cluster);
  if (r.Has("fault_processes") && ctx.ok()) {
    io::LoadFaultProcesses(&ctx, r.Field("fault_processes"), &scenario.cluster);
  }
  if (ctx.ok()) io::CheckFaultsOffNodeGroups(&ctx, scenario.cluster);
  if (r.Has("job_classes") && ctx.ok()) {
    io::LoadJobClasses(&ctx, r.Field("job_classes"), &scenario.job_classes);
  }
  if (r.Has("device_classes") && ctx.ok()) {
    io::LoadDeviceClasses(&ctx, r.Field("device_classes"), &scenario.device_classes);
  }
  if (r.Has("resource_claims") && ctx.ok()) {
    io::LoadSharedClaims(&ctx, r.Field("resource_claims"), scenario.device_classes,
                         &scenario.shared_claims);
  }
  if (ctx.ok()) {
    const std::optional<io::JsonRef> classes =
        r.Has("priority_classes") ? std::optional(r.Field("priority_classes")) : std::nullopt;
    io::LoadPriorityClasses(&ctx, classes ? &*classes : nullptr, &scenario.priority_classes);
  }
  const std::optional<k8s::ManifestSet> manifests = ReadScenarioManifests(&ctx, r, extras);
  if (manifests && ctx.ok()) io::AddManifestPriorityClasses(&ctx, *manifests, &scenario);
  if (manifests && ctx.ok()) io::AddManifestDraObjects(&ctx, *manifests, &scenario);
  if (r.Has("scheduler") && ctx.ok()) io::LoadScheduler(&ctx, r.Field("scheduler"), &scenario);
  if (ctx.ok()) {
    const std::optional<JsonRef> kueue =
        r.Has("kueue") ? std::optional(r.Field("kueue")) : std::nullopt;
    io::LoadKueueWithManifests(&ctx, kueue ? &*kueue : nullptr, manifests ? &*manifests : nullptr,
                               &scenario);
  }
  if ((manifests ? r.Has("workloads") : r.Require("workloads")) && ctx.ok()) {
    io::LoadWorkloads(&ctx, r.Field("workloads"), &scenario);
  }
  if (manifests && ctx.ok()) {
    const std::optional<JsonRef> overlay =
        r.Has("manifest_overlay") ? std::optional(r.Field("manifest_overlay")) : std::nullopt;
    io::AddManifestWorkloads(&ctx, *manifests, overlay ? &*overlay : nullptr, &scenario);
  }
  if (r.Has("pod_disruption_budgets") && ctx.ok()) {
    io::LoadDisruptionBudgets(&ctx, r.Field("pod_disruption_budgets"), &scenario);
  }
  if (manifests && ctx.ok()) io::AddManifestBudgets(&ctx, *manifests, &scenario);
  if (ctx.ok()) io::FinishKueue(&ctx, &scenario);
  if (r.Has("queueing_theory") && ctx.ok()) {
    io::LoadQueueingTheory(&ctx, r.Field("queueing_theory"), &scenario);
  }
  if (r.Has("energy") && ctx.ok()) io::LoadEnergy(&ctx, r.Field("energy"), &scenario.energy);
  if (ctx.ok()) RequireHorizonForDeployments(&ctx, scenario);
  // What the run will create, estimated before it runs (scenario_cost.h).
  if (ctx.ok()) io::CheckScenarioCost(&ctx, scenario);
  if (!ctx.ok()) return ctx.status();
  return scenario;
}

std::vector<std::pair<std::string, Json>> ReadVariants(LoadContext* ctx, const JsonRef& ref) {
  std::vector<std::pair<std::string, Json>> variants;
  if (!io::ExpectObject(ctx, ref)) return variants;
  // Every variant is a scenario built and held while the file loads.
  const int64_t most = CurrentInputLimits().variants;
  if (static_cast<int64_t>(ref.value().size()) > most) {
    ctx->Fail(ref.pointer(), std::to_string(ref.value().size()) + " variants; the limit is " +
                                 std::to_string(most) + io::RaiseHint("variants"));
    return variants;
  }
  for (const auto& [name, patch] : ref.value().items()) {
    // Not ref.Member(name): a lookup in an ordered_json object searches its members, and
    // per variant that is quadratic in the variants.
    const JsonRef variant(patch, ref.PointerTo(name));
    if (!IsPlainName(name)) {
      ctx->Fail(variant.pointer(),
                "variant name '" + name + "' may only contain letters, digits, '.', '_' and '-'");
    } else if (name.size() > kMaxVariantName) {
      ctx->Fail(variant.pointer(), "variant names become file names: at most " +
                                       std::to_string(kMaxVariantName) + " characters");
    } else if (io::ExpectObject(ctx, variant) && patch.contains("name")) {
      ctx->Fail(variant.PointerTo("name"), "a variant cannot change 'name'");
    } else if (patch.contains("variants")) {
      ctx->Fail(variant.PointerTo("variants"), "variants cannot be nested");
    }
    if (!ctx->ok()) return {};
    variants.emplace_back(name, patch);
  }
  return variants;
}

Result<Header> ReadHeader(const std::string& file, Json doc) {
  LoadContext ctx(file);
  Header header;
  {
    ObjectReader r(&ctx, JsonRef(doc, ""), kTopLevelFields);
    if (!r.valid()) return ctx.status();
    header.name = r.NonEmptyString("name");
    r.Require("description");
    header.description = r.String("description");
    if (r.Has("variants") && ctx.ok()) header.variants = ReadVariants(&ctx, r.Field("variants"));
  }
  if (!ctx.ok()) return ctx.status();
  doc.erase("variants");
  header.base = std::move(doc);
  return header;
}

// An error the base document has on its own is the base's: prefixing it with the first
// variant's name would send the user to the wrong place.
Status VariantError(const std::string& file, const Json& base, const std::string& variant,
                    const Status& error, const LoadExtras& extras) {
  Result<Scenario> alone =
      LoadScenario(file, base, {extras.manifests, nullptr, extras.named_files});
  if (!alone.ok() && alone.status().message() == error.message() &&
      alone.status().location().json_pointer == error.location().json_pointer) {
    return error;
  }
  return error.Prefixed("variant '" + variant + "': ");
}

// A seed given with the load replaces the document's and every variant's: a variant that
// kept its own would silently run a seed it was not asked for.
void OverrideSeed(std::optional<uint64_t> seed, Header* header) {
  if (!seed) return;
  header->base["seed"] = *seed;
  for (auto& [name, patch] : header->variants) patch.erase("seed");
}

Status LoadVariants(const std::string& file, const Header& header, const LoadExtras& extras,
                    ScenarioFile* out) {
  if (header.variants.empty()) {
    Result<Scenario> base = LoadScenario(file, header.base, extras);
    if (!base.ok()) return base.status();
    out->variants.emplace_back("base", std::move(base).value());
    return Status::Ok();
  }
  int64_t pods = 0;
  for (const auto& [name, patch] : header.variants) {
    Json merged = header.base;
    merged.merge_patch(patch);
    Result<Scenario> scenario = LoadScenario(file, merged, extras);
    if (!scenario.ok()) return VariantError(file, header.base, name, scenario.status(), extras);
    // Checked as the variants are built, so that memory stays bounded by the cap.
    pods += io::PodsBeforeRetries(scenario.value());
    if (pods > CurrentInputLimits().pods_per_file) {
      return Status::InvalidArgument("the variants up to this one create " + std::to_string(pods) +
                                         " pods before retries; at most " +
                                         std::to_string(CurrentInputLimits().pods_per_file) +
                                         " fit in one file" + io::RaiseHint("pods-per-file"),
                                     {file, "/variants/" + io::EscapePointerToken(name)});
    }
    out->variants.emplace_back(name, std::move(scenario).value());
  }
  return Status::Ok();
}

Result<ScenarioFile> ParseDocument(Json doc, const std::string& file_label, NamedFiles named_files,
                                   const ScenarioLoadOptions& options) {
  if (Status s = io::TakeSchemaReference(file_label, &doc); !s.ok()) return s;
  Result<Header> header = ReadHeader(file_label, std::move(doc));
  if (!header.ok()) return header.status();
  OverrideSeed(options.seed, &header.value());
  ScenarioFile file{.path = file_label,
                    .name = header.value().name,
                    .description = header.value().description,
                    .variants = {}};
  const LoadExtras extras{options.extra_manifests, &file.warnings, named_files};
  if (Status s = LoadVariants(file_label, header.value(), extras, &file); !s.ok()) return s;
  return file;
}

Result<ScenarioFile> Parse(std::string_view text, const std::string& file_label,
                           NamedFiles named_files, const ScenarioLoadOptions& options) {
  Result<Json> doc = io::ParseJson(text, file_label);
  if (!doc.ok()) return doc.status();
  return ParseDocument(std::move(doc).value(), file_label, named_files, options);
}

// An error of a YAML scenario at "<file>:<line>" besides its pointer: the line of the
// value the pointer names (for a variant's error, in the variant's patch when it is there).
Status AtYamlLine(const Status& error, const io::YamlJson& yaml, const std::string& path) {
  const InputLocation& where = error.location();
  if (where.file != path) return error;  // a file the scenario names: located there
  int line = 0;
  const std::string prefix = "variant '";
  if (error.message().starts_with(prefix)) {
    const size_t end = error.message().find("': ", prefix.size());
    if (end != std::string::npos) {
      const std::string patch = "/variants/" + io::EscapePointerToken(error.message().substr(
                                                   prefix.size(), end - prefix.size()));
      if (yaml.LineOf(patch + where.json_pointer) > yaml.LineOf(patch)) {
        line = yaml.LineOf(patch + where.json_pointer);
      }
    }
  }
  if (line == 0) line = yaml.LineOf(where.json_pointer);
  if (line == 0) return error;
  return Status::InvalidArgument(error.message(),
                                 {path + ":" + std::to_string(line), where.json_pointer});
}

// A YAML scenario: read as the JSON tree it stands for (yaml_json.h; a Kubernetes manifest
// given in the scenario's place is refused there, saying where manifests belong).
Result<ScenarioFile> LoadYamlScenario(const std::string& path, std::string_view text,
                                      const ScenarioLoadOptions& options) {
  Result<io::YamlJson> yaml = io::ParseYamlAsJson(text, path);
  if (!yaml.ok()) return yaml.status();
  const Json& doc = yaml.value().doc;
  Result<ScenarioFile> file = ParseDocument(doc, path, NamedFiles::kRead, options);
  if (!file.ok()) return AtYamlLine(file.status(), yaml.value(), path);
  return file;
}

}  // namespace

Result<ScenarioFile> ParseScenarioText(std::string_view text, const std::string& file_label,
                                       NamedFiles named_files, const ScenarioLoadOptions& options) {
  return io::CatchJsonErrors(file_label,
                             [&] { return Parse(text, file_label, named_files, options); });
}

Result<ScenarioFile> LoadScenarioFile(const std::string& path, const ScenarioLoadOptions& options) {
  Result<std::string> text = ReadInputFile(path);
  if (!text.ok()) return text.status();
  if (io::IsYamlPath(path)) {
    return io::CatchJsonErrors(path, [&] { return LoadYamlScenario(path, text.value(), options); });
  }
  return ParseScenarioText(text.value(), path, NamedFiles::kRead, options);
}

}  // namespace migsim
