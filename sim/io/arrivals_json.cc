// Workload kind "Arrivals": an open-loop Poisson stream of pods, generated here into a
// TraceSpec so that the engine replays it like any trace (scenarios/README.md, "kind":
// "Arrivals"). The sampling is workloads/arrival_process.h's.

#include <algorithm>
#include <limits>
#include <string_view>

#include "sim/io/csv_lines.h"
#include "sim/io/input_file.h"
#include "sim/io/input_limits.h"
#include "sim/io/pod_list_csv.h"
#include "sim/io/scenario_sections_json.h"
#include "workloads/arrival_process.h"

namespace migsim::io {
namespace {

// Past this a lognormal's mean is dominated by draws no sample of a run will see.
constexpr double kMaxSigma = 10;

// One class of pods: a template, its weight in the mix, and where its run time comes from.
struct ArrivalClass {
  std::string name;  // empty for a workload with a single `template`
  double weight = 1;
  TemplateId tmpl = TemplateId::Invalid();
  std::optional<RunTimeDistribution> run;  // nullopt: the template's job class decides
  std::string run_pointer;                 // the `run_time` that gave `run`
};

// Reads `key` as a number > 0 and <= max; `fallback` when absent or wrong.
double PositiveNumber(LoadContext* ctx, ObjectReader& r, std::string_view key, double fallback,
                      double max = std::numeric_limits<double>::max()) {
  const double value = r.Number(key, fallback, std::numeric_limits<double>::lowest(), max);
  if (r.Has(key) && ctx->ok() && value <= 0) ctx->Fail(r.Field(key).pointer(), "must be > 0");
  return value;
}

// The values of `column` in the CSV at `path`; an error names the CSV line.
Result<std::vector<double>> ReadColumn(const std::string& path, const std::string& column,
                                       bool* column_missing) {
  Result<std::string> text = ReadInputFile(path);
  if (!text.ok()) return text.status();
  struct Row {
    int line = 0;
    double value = 0;
  };
  size_t index = 0;
  Result<std::vector<Row>> rows = ParseCsvLines<Row>(
      text.value(), path,
      [&](const std::vector<std::string_view>& header) {
        const auto it = std::find(header.begin(), header.end(), column);
        if (it != header.end()) {
          index = static_cast<size_t>(it - header.begin());
          return Status::Ok();
        }
        *column_missing = true;
        return Status::ParseError("no column '" + column +
                                  "' (columns: " + JoinFields(header, ", ") + ")");
      },
      [&](const std::vector<std::string_view>& fields, Row* row) {
        return ParseCsvSeconds(column, fields[index], kMaxSeconds, &row->value);
      });
  if (!rows.ok()) return rows.status();
  std::vector<double> values;
  for (const Row& row : rows.value()) values.push_back(row.value);
  return values;
}

std::optional<RunTimeDistribution> LoadEmpirical(LoadContext* ctx, ObjectReader& r) {
  const std::string file = r.NonEmptyString("csv");
  const std::string column = r.Has("column") ? r.NonEmptyString("column") : "run_s";
  if (!ctx->ok() || !ctx->MayReadNamedFile(r.Field("csv").pointer())) return std::nullopt;
  const std::string path = ctx->ResolvePath(file);
  bool column_missing = false;
  Result<std::vector<double>> values = ReadColumn(path, column, &column_missing);
  const std::string pointer =
      r.Field(column_missing && r.Has("column") ? "column" : "csv").pointer();
  if (!values.ok()) {
    ctx->Fail(pointer, values.status().ToString());
    return std::nullopt;
  }
  if (values.value().empty()) {
    ctx->Fail(pointer, path + ": no rows");
    return std::nullopt;
  }
  return RunTimeDistribution::Empirical(std::move(values).value());
}

// A `run_time` object: {"distribution": ..., its parameters}.
std::optional<RunTimeDistribution> LoadRunTime(LoadContext* ctx, const JsonRef& ref) {
  if (!ExpectObject(ctx, ref)) return std::nullopt;
  if (!ref.value().contains("distribution")) {
    ctx->Fail(ref.pointer(), "missing required field 'distribution'");
    return std::nullopt;
  }
  const JsonRef kind_ref = ref.Member("distribution");
  const std::optional<std::string> kind = ReadString(ctx, kind_ref);
  if (!kind) return std::nullopt;
  std::optional<RunTimeDistribution> run;
  if (*kind == "constant") {
    ObjectReader r(ctx, ref, {"distribution", "s"});
    if (r.Require("s")) run = RunTimeDistribution::Constant(r.Number("s", 0, 0, kMaxSeconds));
  } else if (*kind == "exponential") {
    ObjectReader r(ctx, ref, {"distribution", "mean_s"});
    if (r.Require("mean_s")) {
      run = RunTimeDistribution::Exponential(PositiveNumber(ctx, r, "mean_s", 1, kMaxSeconds));
    }
  } else if (*kind == "lognormal") {
    ObjectReader r(ctx, ref, {"distribution", "mean_s", "sigma"});
    r.Require("mean_s");
    r.Require("sigma");
    const double mean = PositiveNumber(ctx, r, "mean_s", 1, kMaxSeconds);
    run = RunTimeDistribution::Lognormal(mean, r.Number("sigma", 0, 0, kMaxSigma));
  } else if (*kind == "empirical") {
    ObjectReader r(ctx, ref, {"distribution", "csv", "column"});
    run = LoadEmpirical(ctx, r);
  } else {
    ctx->Fail(kind_ref.pointer(),
              UnknownNameMessage("run-time distribution", *kind,
                                 {"constant", "empirical", "exponential", "lognormal"}));
  }
  if (!ctx->ok()) return std::nullopt;
  return run;
}

// `rate`: [{"at_s", "per_s"}], starting at 0, times strictly increasing.
std::vector<RatePiece> LoadRatePieces(LoadContext* ctx, const JsonRef& ref) {
  std::vector<RatePiece> pieces;
  if (!ExpectArray(ctx, ref)) return pieces;
  if (ref.value().empty()) ctx->Fail(ref.pointer(), "must have at least one rate point");
  for (size_t i = 0; i < ref.value().size() && ctx->ok(); ++i) {
    ObjectReader r(ctx, ref.Element(i), {"at_s", "per_s"});
    r.Require("at_s");
    r.Require("per_s");
    const RatePiece piece{.from_s = r.Number("at_s", 0, 0, kMaxSeconds),
                          .per_s = PositiveNumber(ctx, r, "per_s", 1)};
    if (!ctx->ok()) break;
    if (i == 0 && piece.from_s != 0) {
      ctx->Fail(r.Field("at_s").pointer(), "the first rate point must be at at_s 0");
    } else if (i > 0 && piece.from_s <= pieces.back().from_s) {
      ctx->Fail(r.Field("at_s").pointer(),
                "must be > the previous point's at_s (" + FormatNumber(pieces.back().from_s) + ")");
    }
    pieces.push_back(piece);
  }
  return pieces;
}

// Exactly one of `rate_per_s` and `rate`.
std::vector<RatePiece> LoadRate(LoadContext* ctx, ObjectReader& r) {
  if (r.Has("rate_per_s") && r.Has("rate")) {
    ctx->Fail(r.Field("rate").pointer(), "give either rate_per_s or rate, not both");
    return {};
  }
  if (r.Has("rate")) return LoadRatePieces(ctx, r.Field("rate"));
  if (!r.Has("rate_per_s")) {
    ctx->Fail(r.object().pointer(), "missing the arrival rate: give rate_per_s or rate");
    return {};
  }
  return {RatePiece{.from_s = 0, .per_s = PositiveNumber(ctx, r, "rate_per_s", 1)}};
}

// A class's template and run time. The engine runs a pod either for a given time or as its
// job class says, so a template with a job_class takes no run_time, and one without takes
// its own, else `fallback`'s; a missing one is an error at the class's `run_time`.
void LoadClassBody(LoadContext* ctx, ObjectReader& r, const ArrivalClass& fallback,
                   Scenario* scenario, ArrivalClass* c) {
  if (!r.Require("template") || !ctx->ok()) return;
  c->tmpl = LoadPodTemplate(ctx, r.Field("template"), TemplateRun::kJobClassOrRecorded, scenario);
  if (!ctx->ok()) return;
  const bool job_class = scenario->templates[c->tmpl.value()].job_class.valid();
  if (r.Has("run_time")) {
    c->run_pointer = r.Field("run_time").pointer();
    if (job_class) {
      ctx->Fail(c->run_pointer,
                "the template's job_class gives the run time: give run_time or job_class, not "
                "both");
      return;
    }
    c->run = LoadRunTime(ctx, r.Field("run_time"));
  } else if (!job_class) {
    c->run = fallback.run;
    c->run_pointer = fallback.run_pointer;
    if (!c->run) {
      ctx->Fail(r.object().PointerTo("run_time"),
                "no run_time, and the template has no job_class to give the run time");
    }
  }
}

// `mix`: class name -> {"weight", "template", "run_time"}, in file order.
std::vector<ArrivalClass> LoadMix(LoadContext* ctx, const JsonRef& ref,
                                  const ArrivalClass& fallback, Scenario* scenario) {
  std::vector<ArrivalClass> classes;
  if (!ExpectNamedObject(ctx, ref, "class")) return classes;
  if (ref.value().empty()) ctx->Fail(ref.pointer(), "must name at least one class");
  for (const auto& [name, value] : ref.value().items()) {
    if (!ctx->ok()) break;
    ObjectReader r(ctx, ref.Member(name), {"weight", "template", "run_time"});
    ArrivalClass& c = classes.emplace_back();
    c.name = name;
    c.weight = PositiveNumber(ctx, r, "weight", 1);
    LoadClassBody(ctx, r, fallback, scenario, &c);
  }
  return classes;
}

// Exactly one of `mix` and `template`. With a mix, the workload's `run_time` is the default
// of the classes without a job class; with a template, it is the template's own.
std::vector<ArrivalClass> LoadClasses(LoadContext* ctx, ObjectReader& r, Scenario* scenario) {
  if (r.Has("mix") && r.Has("template")) {
    ctx->Fail(r.Field("template").pointer(), "give either mix or template, not both");
    return {};
  }
  if (!r.Has("mix") && !r.Has("template")) {
    ctx->Fail(r.object().pointer(), "missing the pods: give template or mix");
    return {};
  }
  ArrivalClass single;
  if (!r.Has("mix")) {
    LoadClassBody(ctx, r, ArrivalClass{}, scenario, &single);
    return {single};
  }
  ArrivalClass fallback;
  if (r.Has("run_time")) {
    fallback.run = LoadRunTime(ctx, r.Field("run_time"));
    fallback.run_pointer = r.Field("run_time").pointer();
  }
  if (!ctx->ok()) return {};
  return LoadMix(ctx, r.Field("mix"), fallback, scenario);
}

ArrivalPlan PlanOf(const std::vector<RatePiece>& rate, std::optional<int64_t> count,
                   std::optional<double> until_s, const std::vector<ArrivalClass>& classes) {
  ArrivalPlan plan{.rate = rate, .count = count, .until_s = until_s};
  for (const ArrivalClass& c : classes) {
    plan.class_weights.push_back(c.weight);
    plan.class_runs.push_back(c.run);
  }
  return plan;
}

ArrivalsModel ModelOf(const std::vector<RatePiece>& rate,
                      const std::vector<ArrivalClass>& classes) {
  ArrivalsModel model;
  if (rate.size() == 1) model.rate_per_s = rate.front().per_s;
  double total = 0;
  for (const ArrivalClass& c : classes) total += c.weight;
  for (const ArrivalClass& c : classes) {
    model.classes.push_back(
        {.name = c.name, .tmpl = c.tmpl, .fraction = c.weight / total, .run = c.run});
  }
  return model;
}

// The message for an arrival or run time past what a run can span.
std::string SpanMessage(std::string_view what, int64_t index, double s) {
  return std::string(what) + " of arrival " + std::to_string(index) + " (" + FormatNumber(s) +
         " s) passes the " + FormatNumber(kMaxSeconds) + " s a run can span";
}

// The arrivals as trace entries: times offset by `at`, names "<workload>[-<class>]-<index>".
std::vector<TraceEntry> Entries(LoadContext* ctx, const std::string& workload,
                                const std::vector<Arrival>& arrivals, SimTime at,
                                const std::string& rate_pointer,
                                const std::vector<ArrivalClass>& classes) {
  std::vector<TraceEntry> entries;
  entries.reserve(arrivals.size());
  for (size_t i = 0; i < arrivals.size(); ++i) {
    const Arrival& a = arrivals[i];
    const ArrivalClass& c = classes[a.cls];
    const double at_s = at.seconds() + a.at_s;
    if (!(at_s <= kMaxSeconds)) {
      ctx->Fail(rate_pointer, SpanMessage("the time", static_cast<int64_t>(i), at_s));
      return {};
    }
    if (a.run_s && !(*a.run_s <= kMaxSeconds)) {
      ctx->Fail(c.run_pointer, SpanMessage("the run time", static_cast<int64_t>(i), *a.run_s));
      return {};
    }
    TraceEntry& e = entries.emplace_back();
    e.at = SimTime::Seconds(at_s);
    e.tmpl = c.tmpl;
    if (a.run_s) e.run = SimTime::Seconds(*a.run_s);
    e.name = workload + (c.name.empty() ? "" : "-" + c.name) + "-" + std::to_string(i);
  }
  return entries;
}

}  // namespace

void LoadArrivals(LoadContext* ctx, const std::string& name, const JsonRef& ref,
                  Scenario* scenario) {
  ObjectReader r(ctx, ref,
                 {"kind", "namespace", "at_s", "count", "until_s", "rate_per_s", "rate", "run_time",
                  "mix", "template"});
  const SimTime at = r.Seconds("at_s", SimTime::Zero());
  std::optional<int64_t> count;
  std::optional<double> until_s;
  if (r.Has("count")) count = r.Int("count", 1, 1, CurrentInputLimits().pods_per_scenario);
  if (r.Has("until_s")) until_s = r.Number("until_s", 0, 0, kMaxSeconds);
  if (ctx->ok() && !count && !until_s) {
    ctx->Fail(ref.pointer(), "missing the end of the arrivals: give count, until_s or both");
  } else if (ctx->ok() && until_s && *until_s <= at.seconds()) {
    ctx->Fail(r.Field("until_s").pointer(),
              "must be > the workload's at_s (" + FormatNumber(at.seconds()) + ")");
  }
  const std::vector<RatePiece> rate = ctx->ok() ? LoadRate(ctx, r) : std::vector<RatePiece>{};
  const std::vector<ArrivalClass> classes =
      ctx->ok() ? LoadClasses(ctx, r, scenario) : std::vector<ArrivalClass>{};
  if (!ctx->ok()) return;
  // The rate's times count from at_s, until_s from the start of the run.
  if (until_s) *until_s -= at.seconds();
  const std::optional<std::vector<Arrival>> arrivals = GenerateArrivals(
      PlanOf(rate, count, until_s, classes), MixSeed(scenario->seed, Fnv1a64(name)),
      CurrentInputLimits().pods_per_scenario);
  if (!arrivals) {
    ctx->Fail(r.Field("until_s").pointer(),
              "more than " + std::to_string(CurrentInputLimits().pods_per_scenario) +
                  " pods (the most one run holds) arrive before until_s: lower the rate or "
                  "until_s, or give count");
    return;
  }
  TraceSpec spec;
  spec.name = name;
  const std::string rate_pointer = r.Field(r.Has("rate") ? "rate" : "rate_per_s").pointer();
  spec.entries = Entries(ctx, name, *arrivals, at, rate_pointer, classes);
  spec.arrivals = ModelOf(rate, classes);
  if (ctx->ok()) scenario->workloads.emplace_back(std::move(spec));
}

}  // namespace migsim::io
