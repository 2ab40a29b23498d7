// Workload kind "Trace" with `pods`: a pod list, from a CSV file or inline, replayed in
// time; each row names one of the workload's own pod templates (scenarios/README.md,
// "kind": "Trace").

#include <algorithm>
#include <map>
#include <unordered_map>

#include "sim/io/pod_list_csv.h"
#include "sim/io/scenario_sections_json.h"

namespace migsim::io {
namespace {

// The rows of an inline `pods` array, each an object with the CSV's columns as fields;
// a row's `line` is its index.
std::vector<PodListRow> ReadInlineRows(LoadContext* ctx, const JsonRef& ref) {
  std::vector<PodListRow> rows;
  if (!ExpectArray(ctx, ref)) return rows;
  for (size_t i = 0; i < ref.value().size() && ctx->ok(); ++i) {
    ObjectReader r(ctx, ref.Element(i), {"at_s", "template", "run_s", "name"});
    PodListRow& row = rows.emplace_back();
    row.line = static_cast<int>(i);
    if (r.Require("at_s")) row.at_s = r.Number("at_s", 0, 0, kMaxSeconds);
    row.tmpl = r.NonEmptyString("template");
    if (r.Has("run_s")) row.run_s = r.Number("run_s", 0, 0, kMaxSeconds);
    row.name = r.String("name");
  }
  return rows;
}

// Where a row's problem is reported: the element of an inline list, or the `pods` field
// with the CSV line.
struct RowPlace {
  const JsonRef* pods;
  std::string csv;  // empty for an inline list

  // "line 4" of the CSV, or "row 3" of the inline list.
  std::string RowLabel(const PodListRow& row) const {
    return (csv.empty() ? "row " : "line ") + std::to_string(row.line);
  }

  // `field` is the inline row's member the message is about.
  void Fail(LoadContext* ctx, const PodListRow& row, std::string_view field,
            const std::string& message) const {
    if (csv.empty()) {
      ctx->Fail(pods->Element(static_cast<size_t>(row.line)).PointerTo(field), message);
    } else {
      ctx->Fail(pods->pointer(), csv + ":line " + std::to_string(row.line) + ": " + message);
    }
  }
};

std::map<std::string, TemplateId> LoadTemplates(LoadContext* ctx, const JsonRef& ref,
                                                Scenario* scenario) {
  std::map<std::string, TemplateId> templates;
  if (!ExpectNamedObject(ctx, ref, "pod template")) return templates;
  if (ref.value().empty()) ctx->Fail(ref.pointer(), "must name at least one pod template");
  for (const auto& [name, value] : ref.value().items()) {
    if (!ctx->ok()) break;
    templates[name] =
        LoadPodTemplate(ctx, ref.Member(name), TemplateRun::kJobClassOrRecorded, scenario);
  }
  return templates;
}

std::vector<std::string> Names(const std::map<std::string, TemplateId>& templates) {
  std::vector<std::string> names;
  for (const auto& [name, id] : templates) names.push_back(name);
  return names;
}

// One entry per row, in the list's order; an error names the row.
std::vector<TraceEntry> Entries(LoadContext* ctx, const std::string& workload,
                                const std::vector<PodListRow>& rows, const RowPlace& place,
                                const std::map<std::string, TemplateId>& templates,
                                const TraceTiming& timing, const Scenario& scenario) {
  std::vector<TraceEntry> entries;
  std::unordered_map<std::string, const PodListRow*> named;  // pod names identify pods in outputs
  for (size_t i = 0; i < rows.size(); ++i) {
    const PodListRow& row = rows[i];
    const auto it = templates.find(row.tmpl);
    if (it == templates.end()) {
      place.Fail(ctx, row, "template",
                 UnknownNameMessage("pod template", row.tmpl, Names(templates)));
      return {};
    }
    if (!row.run_s && !scenario.templates[it->second.value()].job_class.valid()) {
      place.Fail(ctx, row, "run_s",
                 "no run_s, and template '" + row.tmpl + "' has no job_class to give the run time");
      return {};
    }
    const std::optional<SimTime> at = timing.Arrival(row.at_s);
    const std::optional<SimTime> run = row.run_s ? timing.Run(*row.run_s) : SimTime::Zero();
    if (!at || !run) {
      place.Fail(ctx, row, "at_s", TraceSpanMessage());
      return {};
    }
    TraceEntry& e = entries.emplace_back();
    e.name = row.name.empty() ? workload + "-" + std::to_string(i) : row.name;
    if (const auto [other, fresh] = named.emplace(e.name, &row); !fresh) {
      place.Fail(
          ctx, row, "name",
          "pod name '" + e.name + "' is already the name of " + place.RowLabel(*other->second));
      return {};
    }
    e.at = *at;
    e.tmpl = it->second;
    if (row.run_s) e.run = *run;
  }
  return entries;
}

}  // namespace

void LoadPodListTrace(LoadContext* ctx, const std::string& name, const JsonRef& ref,
                      Scenario* scenario) {
  ObjectReader r(ctx, ref, {"kind", "namespace", "pods", "templates", "at_s", "time_scale", "limit"});
  const TraceTiming timing = ReadTraceTiming(ctx, r);
  std::map<std::string, TemplateId> templates;
  if (r.Require("templates") && ctx->ok()) {
    templates = LoadTemplates(ctx, r.Field("templates"), scenario);
  }
  if (!ctx->ok()) return;
  const JsonRef pods = r.Field("pods");
  RowPlace place{&pods, ""};
  std::vector<PodListRow> rows;
  if (pods.value().is_string()) {
    if (!ctx->MayReadNamedFile(pods.pointer())) return;
    place.csv = ctx->ResolvePath(pods.value().get<std::string>());
    Result<std::vector<PodListRow>> loaded = LoadPodList(place.csv);
    if (!loaded.ok()) {
      ctx->Fail(pods.pointer(), loaded.status().ToString());
      return;
    }
    rows = std::move(loaded).value();
  } else if (pods.value().is_array()) {
    rows = ReadInlineRows(ctx, pods);
  } else {
    ctx->Fail(pods.pointer(),
              "expected a CSV file name or an array of pods, got " + TypeName(pods.value()));
  }
  if (!ctx->ok()) return;
  if (rows.empty()) {
    ctx->Fail(pods.pointer(), place.csv.empty() ? "no pods" : place.csv + ": no pods");
    return;
  }
  TraceSpec spec;
  spec.name = name;
  spec.entries = Entries(ctx, name, rows, place, templates, timing, *scenario);
  if (!ctx->ok()) return;
  std::stable_sort(spec.entries.begin(), spec.entries.end(),
                   [](const TraceEntry& a, const TraceEntry& b) { return a.at < b.at; });
  if (timing.limit > 0 && static_cast<size_t>(timing.limit) < spec.entries.size()) {
    spec.entries.resize(static_cast<size_t>(timing.limit));
  }
  scenario->workloads.emplace_back(std::move(spec));
}

}  // namespace migsim::io
