#include "sim/io/sweep_json.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <utility>

#include "sim/core/text.h"
#include "sim/io/input_file.h"
#include "sim/io/input_limits.h"
#include "sim/io/json_reader.h"
#include "sim/io/scenario_json.h"
#include "sim/io/schema_reference.h"
#include "sim/io/yaml_json.h"
#include "sim/io/sweep_pointer.h"

namespace migsim {
namespace {

namespace fs = std::filesystem;
using io::Json;
using io::JsonRef;
using io::LoadContext;
using io::ObjectReader;

constexpr std::array<std::string_view, 6> kSweepFields = {"name",     "description", "scenario",
                                                          "variants", "axes",        "points"};

// (pointer, value) in the order a point applies them.
using Assignments = std::vector<std::pair<std::string, Json>>;

// What the sweep file says, before its points are built.
struct Spec {
  std::string name, description;
  Json scenario;               // the scenario's base document, variants included
  std::string scenario_label;  // its path, or the sweep's own for an inline scenario
  bool inline_scenario = false;
  std::vector<std::string> variants;  // selected; empty: all
  std::vector<std::pair<std::string, std::vector<Json>>> axes;
  std::vector<Assignments> listed;
  NamedFiles named_files = NamedFiles::kRead;  // for the scenario file and the scenario's own
};

// A member name that must be a pointer: reported at its own location in the sweep file.
void CheckPointer(LoadContext* ctx, const JsonRef& parent, const std::string& key) {
  Result<std::vector<std::string>> tokens = io::ParsePointer(key);
  if (!tokens.ok()) ctx->Fail(parent.PointerTo(key), tokens.status().message());
}

void ReadAxes(LoadContext* ctx, const JsonRef& ref, Spec* spec) {
  if (!io::ExpectObject(ctx, ref)) return;
  for (const auto& [pointer, values] : ref.value().items()) {
    const JsonRef axis = ref.Member(pointer);
    CheckPointer(ctx, ref, pointer);
    if (!io::ExpectArray(ctx, axis)) return;
    if (values.empty()) ctx->Fail(axis.pointer(), "must not be empty (give at least one value)");
    if (!ctx->ok()) return;
    spec->axes.emplace_back(pointer, std::vector<Json>(values.begin(), values.end()));
  }
}

void ReadPoints(LoadContext* ctx, const JsonRef& ref, Spec* spec) {
  if (!io::ExpectArray(ctx, ref)) return;
  for (size_t i = 0; i < ref.value().size(); ++i) {
    const JsonRef point = ref.Element(i);
    if (!io::ExpectObject(ctx, point)) return;
    Assignments assignments;
    for (const auto& [pointer, value] : point.value().items()) {
      CheckPointer(ctx, point, pointer);
      assignments.emplace_back(pointer, value);
    }
    if (!ctx->ok()) return;
    spec->listed.push_back(std::move(assignments));
  }
}

void ReadVariantNames(LoadContext* ctx, const JsonRef& ref, Spec* spec) {
  spec->variants = io::ReadStringArray(ctx, ref);
  if (ctx->ok() && spec->variants.empty()) ctx->Fail(ref.pointer(), "must not be empty");
  for (size_t i = 0; i < spec->variants.size() && ctx->ok(); ++i) {
    if (std::find(spec->variants.begin(), spec->variants.begin() + i, spec->variants[i]) !=
        spec->variants.begin() + i) {
      ctx->Fail(ref.Element(i).pointer(), "variant '" + spec->variants[i] + "' is listed twice");
    }
  }
}

// The scenario member: a path relative to the sweep file, or the scenario itself.
Status ReadScenario(const std::string& file, const JsonRef& ref, Spec* spec) {
  if (ref.value().is_object()) {
    spec->scenario = ref.value();
    spec->scenario_label = file;
    spec->inline_scenario = true;
    return Status::Ok();
  }
  if (!ref.value().is_string()) {
    return Status::InvalidArgument(
        "expected a scenario file path or a scenario object, got " + io::TypeName(ref.value()),
        {file, ref.pointer()});
  }
  if (spec->named_files == NamedFiles::kRefused) {
    return Status::InvalidArgument("named files are not read here", {file, ref.pointer()});
  }
  const fs::path relative(ref.value().get<std::string>());
  spec->scenario_label =
      (relative.is_absolute() ? relative : fs::path(file).parent_path() / relative)
          .lexically_normal()
          .string();
  Result<std::string> text = ReadInputFile(spec->scenario_label);
  if (!text.ok()) return Status::IoError(text.status().ToString(), {file, ref.pointer()});
  Result<Json> doc = io::ParseScenarioDocument(text.value(), spec->scenario_label);
  if (!doc.ok()) return doc.status();
  spec->scenario = std::move(doc).value();
  return Status::Ok();
}

// The variant names a scenario document defines ("base" when it has none), or an empty
// list when its "variants" member is malformed (the scenario loader reports that).
std::vector<std::string> VariantNames(const Json& doc) {
  if (!doc.is_object() || !doc.contains("variants")) return {"base"};
  const Json& variants = doc["variants"];
  if (!variants.is_object()) return {};
  if (variants.empty()) return {"base"};
  std::vector<std::string> names;
  for (const auto& [name, patch] : variants.items()) names.push_back(name);
  return names;
}

// Drops the variants the sweep does not select, so that only those are built and checked.
Status SelectVariants(const std::vector<std::string>& wanted, const std::string& label, Json* doc) {
  const std::vector<std::string> names = VariantNames(*doc);
  if (wanted.empty() || names.empty()) return Status::Ok();
  for (size_t i = 0; i < wanted.size(); ++i) {
    if (std::find(names.begin(), names.end(), wanted[i]) == names.end()) {
      return Status::InvalidArgument(
          "no variant '" + wanted[i] + "' in " + label + " (variants: " + JoinNames(names) + ")",
          {"", "/variants/" + std::to_string(i)});
    }
  }
  if (!doc->contains("variants") || (*doc)["variants"].empty()) return Status::Ok();
  Json& variants = (*doc)["variants"];
  for (const std::string& name : names) {
    if (std::find(wanted.begin(), wanted.end(), name) == wanted.end()) variants.erase(name);
  }
  return Status::Ok();
}

Result<Spec> ReadSpec(const std::string& file, const Json& doc, NamedFiles named_files) {
  LoadContext ctx(file, named_files);
  Spec spec;
  spec.named_files = named_files;
  ObjectReader r(&ctx, JsonRef(doc, ""), kSweepFields);
  if (!r.valid()) return ctx.status();
  spec.name = r.NonEmptyString("name");
  spec.description = r.String("description");
  if (r.Has("variants") && ctx.ok()) ReadVariantNames(&ctx, r.Field("variants"), &spec);
  if (r.Has("axes") && ctx.ok()) ReadAxes(&ctx, r.Field("axes"), &spec);
  if (r.Has("points") && ctx.ok()) ReadPoints(&ctx, r.Field("points"), &spec);
  if (ctx.ok() && spec.axes.empty() && spec.listed.empty()) {
    ctx.Fail("", "a sweep needs points: give 'axes', 'points' or both");
  }
  if (!r.Require("scenario") || !ctx.ok()) return ctx.status();
  if (Status s = ReadScenario(file, r.Field("scenario"), &spec); !s.ok()) return s;
  // A misspelt variant is the sweep's mistake, reported in the sweep file.
  Json base = spec.scenario;
  if (Status s = SelectVariants(spec.variants, spec.scenario_label, &base); !s.ok()) {
    return Status::InvalidArgument(s.message(), {file, s.location().json_pointer});
  }
  return spec;
}

// The assignments of every point, product first (last axis fastest), then listed ones.
Result<std::vector<Assignments>> ExpandPoints(const std::string& file, const Spec& spec) {
  const size_t limit = io::CurrentInputLimits().sweep_points;
  size_t product = spec.axes.empty() ? 0 : 1;
  for (const auto& [pointer, values] : spec.axes) {
    if (product > limit / values.size()) product = limit + 1;
    product *= values.size();
  }
  if (product + spec.listed.size() > limit) {
    return Status::InvalidArgument(
        "more than " + std::to_string(limit) + " points: split the sweep", {file, ""});
  }
  std::vector<Assignments> points;
  for (size_t p = 0; p < product; ++p) {
    Assignments point(spec.axes.size());
    for (size_t a = spec.axes.size(), rest = p; a-- > 0;) {
      const std::vector<Json>& values = spec.axes[a].second;
      point[a] = {spec.axes[a].first, values[rest % values.size()]};
      rest /= values.size();
    }
    points.push_back(std::move(point));
  }
  points.insert(points.end(), spec.listed.begin(), spec.listed.end());
  return points;
}

std::vector<std::string> Columns(const Spec& spec) {
  std::vector<std::string> columns;
  for (const auto& [pointer, values] : spec.axes) columns.push_back(pointer);
  for (const Assignments& point : spec.listed) {
    for (const auto& [pointer, value] : point) {
      if (std::find(columns.begin(), columns.end(), pointer) == columns.end()) {
        columns.push_back(pointer);
      }
    }
  }
  return columns;
}

// The point's scenario: patched, restricted to the selected variants, validated. An error
// comes back as its text, to be put after the point's label.
Result<ScenarioFile> BuildScenario(const Spec& spec, const Assignments& assignments) {
  Json doc = spec.scenario;
  ScenarioLoadOptions options;
  for (const auto& [pointer, value] : assignments) {
    if (Status s = io::SetAtPointer(&doc, pointer, value); !s.ok()) return s;
    // The seed as `migsim run --seed` gives it: every variant's too (a value that is no
    // seed is left to the loader's message at /seed).
    if (pointer == "/seed" && value.is_number_unsigned()) options.seed = value.get<uint64_t>();
  }
  if (Status s = SelectVariants(spec.variants, spec.scenario_label, &doc); !s.ok()) {
    return Status::InvalidArgument(s.message());
  }
  Result<ScenarioFile> loaded =
      ParseScenarioText(doc.dump(), spec.scenario_label, spec.named_files, options);
  if (loaded.ok() || !spec.inline_scenario) return loaded;
  const Status& error = loaded.status();
  return Status::InvalidArgument(
      Status::InvalidArgument(error.message(),
                              {spec.scenario_label, "/scenario" + error.location().json_pointer})
          .ToString());
}

Result<SweepFile> Parse(std::string_view text, const std::string& file, NamedFiles named_files) {
  Result<Json> doc = io::ParseJson(text, file);
  if (!doc.ok()) return doc.status();
  if (Status s = io::TakeSchemaReference(file, &doc.value()); !s.ok()) return s;
  Result<Spec> spec = ReadSpec(file, doc.value(), named_files);
  if (!spec.ok()) return spec.status();
  Result<std::vector<Assignments>> points = ExpandPoints(file, spec.value());
  if (!points.ok()) return points.status();
  SweepFile sweep{.path = file,
                  .name = spec.value().name,
                  .description = spec.value().description,
                  .scenario_path = spec.value().scenario_label,
                  .columns = Columns(spec.value()),
                  .points = {}};
  for (const Assignments& assignments : points.value()) {
    SweepPoint point{.index = sweep.points.size(),
                     .values = std::vector<std::string>(sweep.columns.size()),
                     .scenario = {}};
    for (const auto& [pointer, value] : assignments) {
      const auto column = std::find(sweep.columns.begin(), sweep.columns.end(), pointer);
      point.values[column - sweep.columns.begin()] = value.dump();
    }
    Result<ScenarioFile> scenario = BuildScenario(spec.value(), assignments);
    if (!scenario.ok()) {
      const Status& e = scenario.status();
      return Status::InvalidArgument(
          "point " + std::to_string(point.index) + " (" + PointLabel(sweep, point) +
              "): " + (e.location().file.empty() ? e.message() : e.ToString()),
          {file, ""});
    }
    point.scenario = std::move(scenario).value();
    sweep.points.push_back(std::move(point));
  }
  return sweep;
}

}  // namespace

size_t SweepFile::run_count() const {
  size_t runs = 0;
  for (const SweepPoint& point : points) runs += point.scenario.variants.size();
  return runs;
}

std::string PointLabel(const SweepFile& sweep, const SweepPoint& point) {
  std::string label;
  for (size_t c = 0; c < sweep.columns.size(); ++c) {
    if (point.values[c].empty()) continue;
    if (!label.empty()) label += ", ";
    label += sweep.columns[c] + "=" + point.values[c];
  }
  return label;
}

Result<SweepFile> ParseSweepText(std::string_view text, const std::string& file_label,
                                 NamedFiles named_files) {
  return io::CatchJsonErrors(file_label, [&] { return Parse(text, file_label, named_files); });
}

Result<SweepFile> LoadSweepFile(const std::string& path) {
  Result<std::string> text = ReadInputFile(path);
  if (!text.ok()) return text.status();
  return ParseSweepText(text.value(), path);
}

}  // namespace migsim
