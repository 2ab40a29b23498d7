#include <catch2/catch.hpp>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sim/io/scenario_json.h"
#include "sim/report/run_report.h"

namespace migsim {
namespace {

using Json = nlohmann::json;

// 56-superres run in-process, both variants, with pods and timeline.
struct SuperRes {
  ScenarioFile file;
  RunReport report;

  SuperRes() {
    Result<ScenarioFile> loaded =
        LoadScenarioFile(MIGSIM_SOURCE_DIR "/scenarios/56-superres.json");
    if (!loaded.ok()) FAIL(loaded.status().ToString());
    file = std::move(loaded).value();
    file.path = "scenarios/56-superres.json";
    std::vector<VariantResult> results;
    for (const auto& [name, scenario] : file.variants) {
      results.push_back(
          RunVariant(name, scenario, {.collect_pods = true, .collect_timeline = true}));
    }
    report = RunReport{&file, std::move(results)};
  }
};

const SuperRes& Run() {
  static const SuperRes run;
  return run;
}

const VariantResult& Variant(const std::string& name) {
  for (const VariantResult& v : Run().report.variants) {
    if (v.name == name) return v;
  }
  FAIL("no variant " + name);
  throw std::logic_error("unreachable");
}

// The parsed trace, and lookups over it.
struct Trace {
  Json root;
  std::map<int, std::string> processes;                // pid -> name
  std::map<int, std::map<int, std::string>> threads;   // pid -> tid -> name

  explicit Trace(const std::string& text) : root(Json::parse(text)) {
    for (const Json& e : root.at("traceEvents")) {
      if (e.at("ph") != "M") continue;
      if (e.at("name") == "process_name") {
        processes[e.at("pid").get<int>()] = e.at("args").at("name").get<std::string>();
      } else if (e.at("name") == "thread_name") {
        threads[e.at("pid").get<int>()][e.at("tid").get<int>()] =
            e.at("args").at("name").get<std::string>();
      }
    }
  }

  int Pid(const std::string& process) const {
    for (const auto& [pid, name] : processes) {
      if (name == process) return pid;
    }
    FAIL("no process " + process);
    return -1;
  }

  std::vector<std::string> Tracks(const std::string& process) const {
    std::vector<std::string> names;
    auto it = threads.find(Pid(process));
    if (it == threads.end()) return names;
    for (const auto& [tid, name] : it->second) names.push_back(name);
    return names;
  }

  // Events of one phase in the processes whose names start with `prefix`.
  std::vector<const Json*> Events(const std::string& ph, const std::string& prefix) const {
    std::vector<const Json*> out;
    for (const Json& e : root.at("traceEvents")) {
      if (e.at("ph") != ph) continue;
      const std::string& process = processes.at(e.at("pid").get<int>());
      if (process.rfind(prefix, 0) == 0) out.push_back(&e);
    }
    return out;
  }
};

bool IsStarting(const Json& e) {
  const std::string name = e.at("name").get<std::string>();
  const std::string suffix = " (starting)";
  return name.size() > suffix.size() &&
         name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

TEST_CASE("the chrome trace of 56-superres is a trace-event JSON object", "[trace]") {
  const Trace trace(FormatChromeTrace(Run().report));
  REQUIRE(trace.root.is_object());
  REQUIRE(trace.root.at("traceEvents").is_array());
  CHECK(trace.root.at("displayTimeUnit") == "ms");
  CHECK_FALSE(trace.root.at("traceEvents").empty());
  for (const Json& e : trace.root.at("traceEvents")) {
    REQUIRE(e.contains("ph"));
    REQUIRE(e.contains("pid"));
  }
}

TEST_CASE("the chrome trace has a process per variant and node, and one per cluster",
          "[trace]") {
  const Trace trace(FormatChromeTrace(Run().report));
  std::set<std::string> names;
  for (const auto& [pid, name] : trace.processes) names.insert(name);
  CHECK(names == std::set<std::string>{"mig-1g.5gb / cluster", "mig-1g.5gb / p4d-0",
                                       "whole-gpu / cluster", "whole-gpu / p4d-0"});
  // Sort indices keep the order of the file: variants in run order, cluster first.
  CHECK(trace.Pid("mig-1g.5gb / cluster") < trace.Pid("mig-1g.5gb / p4d-0"));
  CHECK(trace.Pid("mig-1g.5gb / p4d-0") < trace.Pid("whole-gpu / cluster"));
  std::map<int, int> sort_index;
  for (const Json& e : trace.root.at("traceEvents")) {
    if (e.at("ph") == "M" && e.at("name") == "process_sort_index") {
      sort_index[e.at("pid").get<int>()] = e.at("args").at("sort_index").get<int>();
    }
  }
  CHECK(sort_index.size() == trace.processes.size());
  CHECK(sort_index[trace.Pid("mig-1g.5gb / p4d-0")] <
        sort_index[trace.Pid("whole-gpu / p4d-0")]);
}

TEST_CASE("the chrome trace has a slice per pod run, and its start-up before it",
          "[trace]") {
  const Trace trace(FormatChromeTrace(Run().report));
  for (const std::string variant : {"mig-1g.5gb", "whole-gpu"}) {
    INFO(variant);
    const std::vector<const Json*> slices = trace.Events("X", variant + " / ");
    std::map<std::string, const Json*> runs, starting;
    for (const Json* e : slices) {
      (IsStarting(*e) ? starting : runs)[e->at("name").get<std::string>()] = e;
    }
    CHECK(runs.size() == 57);
    CHECK(slices.size() == runs.size() + starting.size());
    CHECK(starting.size() == 57);  // every pod here starts after a start-up
    for (const PodRecord& pod : Variant(variant).pods) {
      INFO(pod.name);
      REQUIRE(runs.count(pod.name) == 1);
      const Json& run = *runs.at(pod.name);
      CHECK(run.at("cat") == pod.owner);
      CHECK(run.at("ts").get<int64_t>() == pod.started->micros());
      CHECK(run.at("ts").get<int64_t>() + run.at("dur").get<int64_t>() ==
            pod.ended->micros());
      CHECK(run.at("args").at("state") == pod.state);
      CHECK(run.at("args").at("reason") == pod.reason);
      CHECK(run.at("args").at("restarts") == pod.restarts);
      CHECK(run.at("args").at("owner") == pod.owner);
      CHECK(run.at("args").at("device") == pod.device);
      const Json& start = *starting.at(pod.name + " (starting)");
      CHECK(start.at("ts").get<int64_t>() == pod.bound->micros());
      CHECK(start.at("ts").get<int64_t>() + start.at("dur").get<int64_t>() ==
            pod.started->micros());
      CHECK(start.at("tid") == run.at("tid"));
    }
  }
}

TEST_CASE("the chrome trace has a track per MIG device or whole GPU, and one for the CPU",
          "[trace]") {
  const Trace trace(FormatChromeTrace(Run().report));
  const std::vector<std::string> mig = trace.Tracks("mig-1g.5gb / p4d-0");
  std::set<std::string> mig_gpu(mig.begin(), mig.end());
  CHECK(mig_gpu.erase("cpu") == 1);
  CHECK(mig_gpu.size() == 56);
  CHECK(mig_gpu.count("gpu0/1g.5gb@0") == 1);
  for (const std::string& name : mig_gpu) CHECK(name.find("/1g.5gb@") != std::string::npos);

  // Tracks in natural order (tid order), the CPU last.
  CHECK(trace.Tracks("whole-gpu / p4d-0") ==
        std::vector<std::string>{"gpu0", "gpu1", "gpu2", "gpu3", "gpu4", "gpu5", "gpu6",
                                 "gpu7", "cpu"});
  CHECK(mig.front() == "gpu0/1g.5gb@0");
  CHECK(mig.back() == "cpu");

  // The generate step, which asks no GPU, is on the CPU track.
  for (const Json* e : trace.Events("X", "whole-gpu / p4d-0")) {
    const int tid = e->at("tid").get<int>();
    const std::string& track = trace.threads.at(e->at("pid").get<int>()).at(tid);
    const std::string device = e->at("args").at("device").get<std::string>();
    CHECK(track == (device.empty() ? "cpu" : device));
  }
}

TEST_CASE("the chrome trace has the cluster's counters at each instant of the timeline",
          "[trace]") {
  const Trace trace(FormatChromeTrace(Run().report));
  for (const std::string variant : {"mig-1g.5gb", "whole-gpu"}) {
    INFO(variant);
    const std::vector<TimelinePoint>& timeline = Variant(variant).timeline;
    REQUIRE_FALSE(timeline.empty());
    std::map<std::string, std::vector<const Json*>> counters;
    for (const Json* e : trace.Events("C", variant + " / cluster")) {
      counters[e->at("name").get<std::string>()].push_back(e);
    }
    REQUIRE(counters.size() == 3);
    for (const auto& [name, events] : counters) {
      INFO(name);
      REQUIRE(events.size() == timeline.size());
      for (size_t i = 0; i < events.size(); ++i) {
        CHECK(events[i]->at("ts").get<int64_t>() == timeline[i].at.micros());
      }
    }
    const size_t last = timeline.size() - 1;
    CHECK(counters["GPU allocation"][last]->at("args").at("value").get<double>() ==
          Approx(timeline[last].allocation).margin(1e-6));
    CHECK(counters["GPU utilization"][0]->at("args").at("value").get<double>() ==
          Approx(timeline[0].utilization).margin(1e-6));
    CHECK(counters["pods"][0]->at("args").at("pending") == timeline[0].pending);
    CHECK(counters["pods"][0]->at("args").at("running") == timeline[0].running);
  }
}

TEST_CASE("the chrome trace's timestamps and durations are whole microseconds, not negative",
          "[trace]") {
  const Trace trace(FormatChromeTrace(Run().report));
  for (const Json& e : trace.root.at("traceEvents")) {
    if (e.contains("ts")) {
      REQUIRE(e.at("ts").is_number_integer());
      CHECK(e.at("ts").get<int64_t>() >= 0);
    }
    if (e.contains("dur")) {
      REQUIRE(e.at("dur").is_number_integer());
      CHECK(e.at("dur").get<int64_t>() >= 0);
    }
  }
}

TEST_CASE("the chrome trace is the same bytes every time", "[trace]") {
  const std::string a = FormatChromeTrace(Run().report);
  const std::string b = FormatChromeTrace(Run().report);
  CHECK(a == b);
}

TEST_CASE("pods sharing a device at once get lanes of their own, and unfinished pods run to "
          "the end", "[trace]") {
  VariantResult v;
  v.name = "ts";
  v.metrics.end_s = 10;
  NodeRecord node;
  node.name = "n";
  node.type = "t";
  v.nodes.push_back(node);
  auto pod = [&](const std::string& name, const std::string& device, double bound,
                 std::optional<double> started, std::optional<double> ended) {
    PodRecord p;
    p.name = name;
    p.owner = "Pod/" + name;
    p.node = "n";
    p.device = device;
    p.bound = SimTime::Seconds(bound);
    if (started) p.started = SimTime::Seconds(*started);
    if (ended) p.ended = SimTime::Seconds(*ended);
    p.state = ended ? "completed" : "running";
    v.pods.push_back(p);
  };
  pod("a", "gpu10/shared", 0, 1, 5);
  pod("b", "gpu10/shared", 2, 3, std::nullopt);  // overlaps a: a second lane
  pod("c", "gpu10/shared", 5, 6, 8);             // after a: back on the first lane
  pod("d", "gpu2+gpu10/shared", 8, std::nullopt, 9);  // never started: bound → ended
  const RunReport report{nullptr, {v}};
  const Trace trace(FormatChromeTrace(report));
  CHECK(trace.Tracks("ts / n") ==
        std::vector<std::string>{"gpu2", "gpu10/shared", "gpu10/shared (2)"});
  std::map<std::string, std::vector<std::pair<int, int64_t>>> slices;  // name -> tid, end
  for (const Json* e : trace.Events("X", "ts / n")) {
    slices[e->at("name").get<std::string>()].emplace_back(
        e->at("tid").get<int>(), e->at("ts").get<int64_t>() + e->at("dur").get<int64_t>());
  }
  CHECK(slices["a"] == std::vector<std::pair<int, int64_t>>{{2, 5'000'000}});
  CHECK(slices["b"] == std::vector<std::pair<int, int64_t>>{{3, 10'000'000}});
  CHECK(slices["c"] == std::vector<std::pair<int, int64_t>>{{2, 8'000'000}});
  CHECK(slices["d"] == std::vector<std::pair<int, int64_t>>{{1, 9'000'000}, {2, 9'000'000}});
  CHECK(slices.count("d (starting)") == 0);
}

TEST_CASE("the timeseries CSV has a row per instant of the timeline", "[trace]") {
  const VariantResult& v = Variant("mig-1g.5gb");
  const std::string csv = FormatTimeseriesCsv(v);
  std::istringstream in(csv);
  std::string line;
  REQUIRE(std::getline(in, line));
  CHECK(line == "time_s,allocation,utilization,pending,running");
  std::vector<std::string> rows;
  while (std::getline(in, line)) rows.push_back(line);
  REQUIRE(rows.size() == v.timeline.size());
  REQUIRE_FALSE(rows.empty());

  const TimelinePoint& first = v.timeline.front();
  char expected[160];
  std::snprintf(expected, sizeof expected, "%.6f,%.6f,%.6f,%lld,%lld", first.at.seconds(),
                first.allocation, first.utilization, static_cast<long long>(first.pending),
                static_cast<long long>(first.running));
  CHECK(rows.front() == expected);
  CHECK(rows.front().rfind("0.000000,", 0) == 0);  // the workflow is submitted at 0

  double previous = -1;
  for (const std::string& row : rows) {
    INFO(row);
    const double t = std::stod(row.substr(0, row.find(',')));
    CHECK(t > previous);
    previous = t;
  }
}

TEST_CASE("the timeseries CSV prints times and ratios with six decimals", "[trace]") {
  VariantResult v;
  v.timeline.push_back(TimelinePoint{SimTime::Seconds(1.5), 0.25, 1.0 / 3, 2, 7});
  v.timeline.push_back(TimelinePoint{SimTime::Seconds(87), -1e-12, 0, 0, 0});
  CHECK(FormatTimeseriesCsv(v) ==
        "time_s,allocation,utilization,pending,running\n"
        "1.500000,0.250000,0.333333,2,7\n"
        "87.000000,0.000000,0.000000,0,0\n");
}

}  // namespace
}  // namespace migsim
