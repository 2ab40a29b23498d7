// Plan files (see plan_json.h and scenarios/README.md, "Plan files").

#include "sim/io/plan_json.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <optional>
#include <utility>

#include "sim/core/text.h"
#include "sim/io/input_file.h"
#include "sim/io/json_reader.h"
#include "sim/io/scenario_json.h"
#include "sim/io/scenario_sections_json.h"
#include "sim/io/schema_reference.h"
#include "sim/io/yaml_json.h"

namespace migsim {
namespace {

using io::Json;
using io::JsonRef;
using io::LoadContext;
using io::ObjectReader;

constexpr std::array<std::string_view, 12> kPlanFields = {
    "name",           "description",      "scenario",         "pool",
    "configurations", "workload_patches", "scenario_patches", "slo",
    "max_nodes",      "seeds",            "energy",           "rank_by"};
constexpr std::array<std::string_view, 7> kSloFields = {
    "p95_queueing_latency_s", "max_pending", "makespan_s",
    "min_completed_fraction", "max_wait_s",  "max_unserved",
    "max_pending_peak"};
// A node pool holds at most this many nodes (cluster_json.cc).
constexpr int64_t kMaxPlanNodes = 100000;

// What the plan says before its scenario is read. Patches are (name, patch) in file order.
struct PlanText {
  PlanFile plan;
  std::string scenario;  // as written
  std::vector<std::pair<std::string, Json>> configurations;
  std::vector<std::pair<std::string, Json>> workload_patches;
  std::vector<std::pair<std::string, Json>> scenario_patches;
  bool seeds_given = false;
  std::optional<Json> energy;  // the plan's `energy`: merged into every configuration's
};

// `rank_by`: "cost" or "energy".
PlanRankBy ReadRankBy(LoadContext* ctx, ObjectReader& r) {
  const std::string name = r.String("rank_by", "cost");
  if (name == "cost") return PlanRankBy::kCost;
  if (name == "energy") return PlanRankBy::kEnergy;
  if (ctx->ok()) {
    ctx->Fail(r.Field("rank_by").pointer(),
              io::UnknownNameMessage("rank_by", name, {"cost", "energy"}));
  }
  return PlanRankBy::kCost;
}

std::vector<std::pair<std::string, Json>> ReadConfigurations(LoadContext* ctx, const JsonRef& ref) {
  std::vector<std::pair<std::string, Json>> out;
  if (!io::ExpectObject(ctx, ref)) return out;
  if (ref.value().empty()) ctx->Fail(ref.pointer(), "must have at least one configuration");
  for (const auto& [name, patch] : ref.value().items()) {
    const JsonRef c = ref.Member(name);
    if (!IsPlainName(name)) {
      ctx->Fail(c.pointer(), "configuration name '" + name +
                                 "' may only contain letters, digits, '.', '_' and '-'");
    } else if (io::ExpectObject(ctx, c) && patch.contains("count")) {
      ctx->Fail(c.PointerTo("count"), "the plan sets the pool's count: remove it");
    }
    if (!ctx->ok()) return {};
    out.emplace_back(name, patch);
  }
  return out;
}

// Patches by configuration name (workload_patches, scenario_patches): each names a
// configuration and is an object.
std::vector<std::pair<std::string, Json>> ReadPatches(
    LoadContext* ctx, const JsonRef& ref,
    const std::vector<std::pair<std::string, Json>>& configurations) {
  std::vector<std::pair<std::string, Json>> out;
  if (!io::ExpectObject(ctx, ref)) return out;
  std::vector<std::string> names;
  for (const auto& [name, patch] : configurations) names.push_back(name);
  for (const auto& [name, patch] : ref.value().items()) {
    const JsonRef p = ref.Member(name);
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      ctx->Fail(p.pointer(), io::UnknownNameMessage("configuration", name, names));
    } else {
      io::ExpectObject(ctx, p);
    }
    if (!ctx->ok()) return {};
    out.emplace_back(name, patch);
  }
  return out;
}

// What a scenario patch may not touch: what the plan sets (the pool's size, the seeds, the
// scenario without variants) and the pool itself, which the configurations patch.
void CheckScenarioPatch(LoadContext* ctx, const JsonRef& ref, const std::string& pool) {
  const Json& patch = ref.value();
  if (patch.contains("variants")) {
    return ctx->Fail(ref.PointerTo("variants"), "a plan runs its scenario without variants");
  }
  if (patch.contains("seed")) {
    return ctx->Fail(ref.PointerTo("seed"), "the plan's seeds set the seed: give 'seeds'");
  }
  // Member() requires the member: a patch that leaves the cluster alone is looked no further.
  if (!patch.contains("cluster")) return;
  const JsonRef cluster = ref.Member("cluster");
  if (!cluster.value().is_object() ||
      !cluster.value().contains("nodes") || !cluster.value()["nodes"].is_object() ||
      !cluster.value()["nodes"].contains(pool)) {
    return;
  }
  const JsonRef p = cluster.Member("nodes").Member(pool);
  if (!p.value().is_object()) {
    return ctx->Fail(p.pointer(), "the plan's pool cannot be replaced or removed: patch it in "
                                  "/configurations");
  }
  if (p.value().contains("count")) {
    return ctx->Fail(p.PointerTo("count"), "the plan sets the pool's count: remove it");
  }
  if (p.value().contains("autoscaling")) {
    const JsonRef group = p.Member("autoscaling");
    if (!group.value().is_object()) {
      return ctx->Fail(group.pointer(), "the pool's autoscaling is the configuration's: set it "
                                        "in /configurations");
    }
    if (group.value().contains("max")) {
      return ctx->Fail(group.PointerTo("max"), "the plan sets the node group's max: remove it");
    }
  }
}

std::vector<std::pair<std::string, Json>> ReadScenarioPatches(
    LoadContext* ctx, const JsonRef& ref,
    const std::vector<std::pair<std::string, Json>>& configurations, const std::string& pool) {
  std::vector<std::pair<std::string, Json>> patches = ReadPatches(ctx, ref, configurations);
  for (const auto& [name, patch] : patches) {
    if (ctx->ok()) CheckScenarioPatch(ctx, ref.Member(name), pool);
  }
  if (!ctx->ok()) return {};
  return patches;
}

PlanSlo ReadSlo(LoadContext* ctx, const JsonRef& ref) {
  PlanSlo slo;
  ObjectReader r(ctx, ref, kSloFields);
  if (!r.valid()) return slo;
  if (ref.value().empty()) {
    ctx->Fail(ref.pointer(),
              "must set at least one objective (expected one of: " +
                  JoinNames(std::vector<std::string>(kSloFields.begin(), kSloFields.end())) + ")");
  }
  if (r.Has("p95_queueing_latency_s")) {
    slo.p95_queueing_latency_s =
        io::ReadNumber(ctx, r.Field("p95_queueing_latency_s"), 0, io::kMaxSeconds);
  }
  if (r.Has("max_pending")) slo.max_pending = io::ReadInt(ctx, r.Field("max_pending"), 0);
  if (r.Has("makespan_s")) {
    slo.makespan_s = io::ReadNumber(ctx, r.Field("makespan_s"), 0, io::kMaxSeconds);
  }
  if (r.Has("min_completed_fraction")) {
    slo.min_completed_fraction = io::ReadNumber(ctx, r.Field("min_completed_fraction"), 0, 1);
  }
  if (r.Has("max_wait_s")) {
    slo.max_wait_s = io::ReadNumber(ctx, r.Field("max_wait_s"), 0, io::kMaxSeconds);
  }
  if (r.Has("max_unserved")) slo.max_unserved = io::ReadInt(ctx, r.Field("max_unserved"), 0);
  if (r.Has("max_pending_peak")) {
    slo.max_pending_peak = io::ReadInt(ctx, r.Field("max_pending_peak"), 0);
  }
  return slo;
}

std::vector<uint64_t> ReadSeeds(LoadContext* ctx, const JsonRef& ref) {
  std::vector<uint64_t> seeds;
  if (!io::ExpectArray(ctx, ref)) return seeds;
  if (ref.value().empty()) ctx->Fail(ref.pointer(), "must not be empty");
  for (size_t i = 0; i < ref.value().size() && ctx->ok(); ++i) {
    std::optional<uint64_t> seed = io::ReadUint64(ctx, ref.Element(i));
    if (!seed) break;
    if (std::find(seeds.begin(), seeds.end(), *seed) != seeds.end()) {
      ctx->Fail(ref.Element(i).pointer(), "seed " + std::to_string(*seed) + " is listed twice");
    }
    seeds.push_back(*seed);
  }
  return seeds;
}

Result<PlanText> ReadPlanText(const std::string& label, const Json& doc) {
  LoadContext ctx(label);
  PlanText out;
  ObjectReader r(&ctx, JsonRef(doc, ""), kPlanFields);
  if (!r.valid()) return ctx.status();
  for (const char* key :
       {"name", "description", "scenario", "pool", "configurations", "slo", "max_nodes"}) {
    r.Require(key);
  }
  out.plan.path = label;
  out.plan.name = r.NonEmptyString("name");
  out.plan.description = r.String("description");
  out.scenario = r.NonEmptyString("scenario");
  out.plan.pool = r.String("pool");
  if (ctx.ok()) out.configurations = ReadConfigurations(&ctx, r.Field("configurations"));
  if (ctx.ok() && r.Has("workload_patches")) {
    out.workload_patches = ReadPatches(&ctx, r.Field("workload_patches"), out.configurations);
  }
  if (ctx.ok() && r.Has("scenario_patches")) {
    out.scenario_patches = ReadScenarioPatches(&ctx, r.Field("scenario_patches"),
                                               out.configurations, out.plan.pool);
  }
  if (ctx.ok()) out.plan.slo = ReadSlo(&ctx, r.Field("slo"));
  out.plan.max_nodes = static_cast<int>(r.Int("max_nodes", 1, 1, kMaxPlanNodes));
  if (ctx.ok() && r.Has("seeds")) {
    out.plan.seeds = ReadSeeds(&ctx, r.Field("seeds"));
    out.seeds_given = true;
  }
  out.plan.rank_by = ReadRankBy(&ctx, r);
  if (ctx.ok() && r.Has("energy")) {
    // Checked here, so that a bad field is reported at the plan's pointer.
    EnergySpec checked;
    io::LoadEnergy(&ctx, r.Field("energy"), &checked);
    out.energy = r.Field("energy").value();
  }
  if (!ctx.ok()) return ctx.status();
  return out;
}

// The scenario's own problem, reported where the plan names it.
Status AtScenario(const std::string& label, const Status& error) {
  const std::string message = error.ToString();
  if (error.code() == StatusCode::kIoError) return Status::IoError(message, {label, "/scenario"});
  return Status::InvalidArgument(message, {label, "/scenario"});
}

// Loads `doc` (a scenario document without variants) with `nodes` nodes in `pool`: its
// count, or when the configuration autoscales the pool, its node group's max (min and
// initial brought down to it); every draw from `seed`.
Result<Scenario> LoadWithNodes(Json doc, const PlanFile& plan, int nodes, uint64_t seed) {
  Json& pool = doc["cluster"]["nodes"][plan.pool];
  if (pool.is_object() && pool.contains("autoscaling") && pool["autoscaling"].is_object()) {
    Json& group = pool["autoscaling"];
    group["max"] = nodes;
    for (const char* bound : {"min", "initial"}) {
      if (group.contains(bound) && group[bound].is_number_integer() &&
          group[bound].get<int64_t>() > nodes) {
        group[bound] = nodes;
      }
    }
    pool.erase("count");
  } else {
    pool["count"] = nodes;
  }
  Result<ScenarioFile> file =
      ParseScenarioText(doc.dump(), plan.scenario_path, plan.named_files, {.seed = seed});
  if (!file.ok()) return file.status();
  return std::move(file).value().variants.front().second;
}

std::string NodesText(int nodes) {
  return std::to_string(nodes) + (nodes == 1 ? " node" : " nodes");
}

// The first of 1 and max_nodes at which `doc` does not load (with the plan's first seed),
// as an error at `pointer` of the plan; the scenario at 1 node when both load.
Result<Scenario> CheckLoads(const PlanFile& plan, const Json& doc, const std::string& pointer) {
  const uint64_t seed = plan.seeds.front();
  Result<Scenario> first = LoadWithNodes(doc, plan, 1, seed);
  for (int nodes : {1, plan.max_nodes}) {
    Result<Scenario> loaded = nodes == 1 ? first : LoadWithNodes(doc, plan, nodes, seed);
    if (loaded.ok()) continue;
    const Status& s = loaded.status();
    std::string where = s.location().json_pointer;
    if (!where.empty()) where += ": ";
    return Status::InvalidArgument(
        "does not load as a scenario with " + NodesText(nodes) + ": " + where + s.message(),
        {plan.path, pointer});
  }
  return first;
}

const Json* FindPatch(const std::vector<std::pair<std::string, Json>>& patches,
                      const std::string& name) {
  for (const auto& [n, patch] : patches) {
    if (n == name) return &patch;
  }
  return nullptr;
}

// One configuration: the pool patched, then the workloads, then the rest of the scenario
// (merged as a variant's patch is); each step must load.
Result<PlanConfiguration> BuildConfiguration(const PlanText& text, const Json& base,
                                             const std::string& name, const Json& patch) {
  const PlanFile& plan = text.plan;
  const std::string pointer = "/" + io::EscapePointerToken(name);
  Json doc = base;
  doc["cluster"]["nodes"][plan.pool].merge_patch(patch);
  Result<Scenario> loaded = CheckLoads(plan, doc, "/configurations" + pointer);
  if (!loaded.ok()) return loaded.status();
  if (const Json* workload_patch = FindPatch(text.workload_patches, name)) {
    doc["workloads"].merge_patch(*workload_patch);
    loaded = CheckLoads(plan, doc, "/workload_patches" + pointer);
    if (!loaded.ok()) return loaded.status();
  }
  if (const Json* scenario_patch = FindPatch(text.scenario_patches, name)) {
    doc.merge_patch(*scenario_patch);
    loaded = CheckLoads(plan, doc, "/scenario_patches" + pointer);
    if (!loaded.ok()) return loaded.status();
  }
  PlanConfiguration c{.name = name, .node_type = "", .price_per_hour = 0, .document = doc.dump()};
  for (const NodeSpec& node : loaded.value().cluster.nodes) {
    if (node.name == plan.pool + "-0") {
      c.node_type = node.type->name;
      c.price_per_hour = node.type->price_per_hour;
    }
  }
  return c;
}

// Reads the scenario the plan names and checks the pool is one of its pools. Returns
// its document without "variants".
Result<Json> ReadScenario(PlanText* text, const ReadTextFile& read) {
  PlanFile& plan = text->plan;
  plan.scenario_path =
      (std::filesystem::path(plan.path).parent_path() / text->scenario).lexically_normal().string();
  Result<std::string> contents = read(plan.scenario_path);
  if (!contents.ok()) return AtScenario(plan.path, contents.status());
  Result<Json> doc = io::ParseScenarioDocument(contents.value(), plan.scenario_path);
  if (!doc.ok()) return AtScenario(plan.path, doc.status());
  Json base = std::move(doc).value();
  if (base.is_object()) base.erase("variants");
  if (text->energy && base.is_object()) base["energy"].merge_patch(*text->energy);
  Result<ScenarioFile> loaded =
      ParseScenarioText(base.dump(), plan.scenario_path, plan.named_files);
  if (!loaded.ok()) return AtScenario(plan.path, loaded.status());
  if (!text->seeds_given) plan.seeds = {loaded.value().variants.front().second.seed};
  std::vector<std::string> pools;
  for (const auto& [name, pool] : base["cluster"]["nodes"].items()) pools.push_back(name);
  if (std::find(pools.begin(), pools.end(), plan.pool) == pools.end()) {
    return Status::InvalidArgument(io::UnknownNameMessage("pool", plan.pool, pools),
                                   {plan.path, "/pool"});
  }
  return base;
}

Result<PlanFile> Parse(std::string_view text, const std::string& label, const ReadTextFile& read,
                       NamedFiles named_files) {
  Result<Json> doc = io::ParseJson(text, label);
  if (!doc.ok()) return doc.status();
  if (Status s = io::TakeSchemaReference(label, &doc.value()); !s.ok()) return s;
  Result<PlanText> plan_text = ReadPlanText(label, doc.value());
  if (!plan_text.ok()) return plan_text.status();
  PlanText& t = plan_text.value();
  t.plan.named_files = named_files;
  Result<Json> base = ReadScenario(&t, read);
  if (!base.ok()) return base.status();
  for (const auto& [name, patch] : t.configurations) {
    Result<PlanConfiguration> c = BuildConfiguration(t, base.value(), name, patch);
    if (!c.ok()) return c.status();
    t.plan.configurations.push_back(std::move(c).value());
  }
  return std::move(t.plan);
}

Result<std::string> ReadFile(const std::string& path) { return ReadInputFile(path); }

}  // namespace

Result<PlanFile> ParsePlanText(std::string_view text, const std::string& file_label,
                               const ReadTextFile& read, NamedFiles named_files) {
  return io::CatchJsonErrors(file_label,
                             [&] { return Parse(text, file_label, read, named_files); });
}

Result<PlanFile> LoadPlanFile(const std::string& path) {
  Result<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  return ParsePlanText(text.value(), path, ReadFile);
}

Result<Scenario> PlanScenario(const PlanFile& plan, const PlanConfiguration& configuration,
                              int nodes, uint64_t seed) {
  return io::CatchJsonErrors(plan.path, [&] {
    return LoadWithNodes(Json::parse(configuration.document), plan, nodes, seed);
  });
}

}  // namespace migsim
