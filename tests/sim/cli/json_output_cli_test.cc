// --json on the commands that print results: stdout holds exactly one JSON document, whose
// keys and values agree with the table, text or CSV the same command prints or writes;
// warnings stay on stderr, and errors stay as they are (stderr, exit 2, nothing on stdout).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/run_migsim.h"
#include "tests/support/scratch_dir.h"

namespace migsim {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

struct Captured {
  int exit_code = -1;
  std::string out, err;  // stdout and stderr apart
};

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// `migsim <args>` (quoted as for sh) with its stdout and stderr kept apart.
Captured Run(const std::string& args) {
  test::ScratchDir dir("json-stderr");
  const std::string err = dir.Path("stderr");
  const std::string command =
      "timeout -k 5 600 " + std::string(MIGSIM_BINARY) + " " + args + " 2>" + err;
  Captured c;
  c.out = test::CommandOutput(command, &c.exit_code);
  c.err = ReadText(err);
  return c;
}

// The JSON document stdout holds; fails the test unless it holds exactly one (nlohmann's
// parse refuses anything after the document) ending in a newline, after exit code 0.
Json Document(const Captured& c) {
  INFO(c.err);
  REQUIRE(c.exit_code == 0);
  REQUIRE(!c.out.empty());
  CHECK(c.out.back() == '\n');
  Json j;
  REQUIRE_NOTHROW(j = Json::parse(c.out));
  return j;
}

std::string Source(const std::string& path) { return std::string(MIGSIM_SOURCE_DIR) + "/" + path; }

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> Words(const std::string& line) {
  std::vector<std::string> words;
  std::istringstream in(line);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// The first line of `text` whose first word is `first`; "" when none.
std::string LineOf(const std::string& text, const std::string& first) {
  for (const std::string& line : Lines(text)) {
    const std::vector<std::string> words = Words(line);
    if (!words.empty() && words[0] == first) return line;
  }
  return "";
}

std::string Fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// A CSV without quoted fields (the tests' files have none) as rows of cells.
std::vector<std::vector<std::string>> Csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  for (const std::string& line : Lines(text)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cells;
    std::string cell;
    std::istringstream in(line);
    while (std::getline(in, cell, ',')) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.push_back("");
    rows.push_back(cells);
  }
  return rows;
}

// Half a unit of a number's last decimal place, as a CSV cell writes it: how far the
// unrounded value may be from it.
double HalfUnit(const std::string& cell) {
  const size_t point = cell.find('.');
  const size_t decimals = point == std::string::npos ? 0 : cell.size() - point - 1;
  return 0.5 * std::pow(10.0, -static_cast<double>(decimals)) + 1e-12;
}

// A CSV cell against a JSON value: empty for null, else the same number (as rounded to the
// cell's decimals) or text.
void CheckCell(const std::string& cell, const Json& value) {
  INFO("cell '" << cell << "', JSON " << value.dump());
  if (value.is_null()) {
    CHECK(cell.empty());
  } else if (value.is_number()) {
    REQUIRE(!cell.empty());
    if (cell.find('e') != std::string::npos) {
      CHECK(std::stod(cell) == Approx(value.get<double>()).epsilon(1e-5));
    } else {
      CHECK(std::abs(std::stod(cell) - value.get<double>()) <= HalfUnit(cell));
    }
  } else if (value.is_boolean()) {
    CHECK(cell == (value.get<bool>() ? "true" : "false"));
  } else {
    CHECK(cell == value.get<std::string>());
  }
}

// Every figure of `doc` as `migsim run --json` writes its own: rounded to the microsecond.
void CheckRoundedToMicro(const Json& doc, const std::string& where = "") {
  if (doc.is_structured()) {
    for (const auto& [key, value] : doc.items()) CheckRoundedToMicro(value, where + "/" + key);
  } else if (doc.is_number_float()) {
    INFO(where << ": " << doc.dump());
    CHECK(doc.get<double>() == std::round(doc.get<double>() * 1e6) / 1e6);
  }
}

TEST_CASE("migsim policies --json lists the policies, parameters and queue orders the text does",
          "[cli][json]") {
  const Json j = Document(Run("policies --json"));
  const std::string text = Run("policies").out;
  REQUIRE(j["policies"].size() > 5);
  for (const Json& p : j["policies"]) {
    const std::string line = LineOf(text, p["name"]);
    INFO(p["name"]);
    CHECK_THAT(line, Catch::Contains(p["summary"].get<std::string>()));
    CHECK((line.find("[scores:") != std::string::npos) == p["scores"].get<bool>());
    for (const Json& param : p["params"]) {
      CHECK_THAT(text, Catch::Contains(param["name"].get<std::string>() + " ") &&
                           Catch::Contains(param["kind"].get<std::string>() + ", "));
      CHECK(param["required"].get<bool>() == param["default"].is_null());
    }
  }
  CHECK_THAT(text, Catch::Contains("plugin ABI versions " +
                                   std::to_string(j["plugin_abi"]["oldest"].get<int>()) + " to " +
                                   std::to_string(j["plugin_abi"]["current"].get<int>())));
  REQUIRE(!j["queue_orders"].empty());
  CHECK(j["queue_orders"][0]["name"] == "priority");
  for (const Json& q : j["queue_orders"]) CHECK_FALSE(LineOf(text, q["name"]).empty());
}

TEST_CASE("migsim job-classes --json gives each class's work, start-up and run times as the text",
          "[cli][json]") {
  const Json j = Document(Run("job-classes --json"));
  const std::string text = Run("job-classes").out;
  REQUIRE(!j["job_classes"].empty());
  for (const Json& c : j["job_classes"]) {
    char head[512];
    std::snprintf(head, sizeof head, "%s  (work %g %s, start-up %g s, duty cycle %g)",
                  c["name"].get<std::string>().c_str(), c["work"].get<double>(),
                  c["work_unit"].get<std::string>().c_str(), c["startup_s"].get<double>(),
                  c["duty_cycle"].get<double>());
    CHECK_THAT(text, Catch::Contains(head));
    for (const Json& r : c["run_times"]) {
      char row[256];
      std::snprintf(row, sizeof row, "  %-24s %10.1f s alone  %10.2f",
                    r["kind"].get<std::string>().c_str(), r["run_s"].get<double>(),
                    r["speed_per_s"].get<double>());
      CHECK_THAT(text, Catch::Contains(row));
    }
    CHECK_THAT(text, Catch::Contains("  source: " + c["source"].get<std::string>()));
  }
}

TEST_CASE("migsim gpus --json gives the table's models and marks the scenario's own",
          "[cli][json]") {
  const std::string scenario = " --scenario " + Source("scenarios/custom-gpu.json");
  const Json j = Document(Run("gpus --json" + scenario));
  const std::string text = Run("gpus" + scenario).out;
  CHECK(j["scenario"] == Source("scenarios/custom-gpu.json"));
  bool user = false;
  REQUIRE(!j["models"].empty());
  for (const Json& m : j["models"]) {
    const std::vector<std::string> w = Words(LineOf(text, m["name"]));
    INFO(m["name"]);
    REQUIRE(w.size() >= 6);
    CHECK(w[1] == m["product_label"]);
    CHECK(w[2] == std::to_string(m["memory_mib"].get<int>()));
    CHECK(w[3] == std::to_string(m["sms"].get<int>()));
    CHECK(w[4] == Fixed(m["max_watts"], 0));
    CHECK(w[5] == Fixed(m["idle_watts"], 0));
    CHECK(m["mig"].is_null() == m["profiles"].empty());
    const bool marked = LineOf(text, m["name"]).find("[scenario]") != std::string::npos;
    CHECK(marked == m["from_scenario"].get<bool>());
    user = user || marked;
  }
  CHECK(user);
}

TEST_CASE("migsim profiles and layouts --json give the rows their tables print", "[cli][json]") {
  const Json p = Document(Run("profiles A100-40GB --json"));
  const std::string text = Run("profiles A100-40GB").out;
  CHECK(p["mig"] == true);
  REQUIRE(!p["profiles"].empty());
  for (const Json& row : p["profiles"]) {
    const std::vector<std::string> w = Words(LineOf(text, row["name"]));
    REQUIRE(w.size() == 9);
    CHECK(w[1] == std::to_string(row["profile_id"].get<int>()));
    CHECK(w[2] == std::to_string(row["compute_slices"].get<int>()));
    CHECK(w[3] == std::to_string(row["memory_slices"].get<int>()));
    CHECK(w[4] == Fixed(row["memory_gib"], 2));
    CHECK(w[5] == std::to_string(row["sms"].get<int>()));
    CHECK(w[6] == std::to_string(row["max_count"].get<int>()));
    CHECK(w[8] == row["resource"]);
  }
  const Json l = Document(Run("layouts A100-40GB --json"));
  const std::vector<std::string> drawn = Lines(Run("layouts A100-40GB").out);
  REQUIRE(l["layouts"].size() == 19);
  REQUIRE(drawn.size() == 20);
  CHECK_THAT(drawn[0], Catch::StartsWith("19 maximal layouts"));
  for (size_t i = 0; i < 19; ++i) {
    const std::string used = std::to_string(l["layouts"][i]["compute_slices_used"].get<int>()) +
                             "/" + std::to_string(l["compute_slices"].get<int>()) + " SM slices";
    CHECK_THAT(drawn[i + 1], Catch::EndsWith(used));
    for (const Json& gi : l["layouts"][i]["instances"]) {
      CHECK_THAT(drawn[i + 1], Catch::Contains(gi["profile"].get<std::string>().substr(0, 8)));
    }
  }
  const Json none = Document(Run("layouts T4 --json"));
  CHECK(none["mig"] == false);
  CHECK(none["layouts"].empty());
}

TEST_CASE("migsim nodes --json gives the table's node types and prices", "[cli][json]") {
  const Json j = Document(Run("nodes --json"));
  const std::string text = Run("nodes").out;
  CHECK(j["scenario"].is_null());
  REQUIRE(j["node_types"].size() > 10);
  for (const Json& t : j["node_types"]) {
    const std::vector<std::string> w = Words(LineOf(text, t["name"]));
    INFO(t["name"]);
    REQUIRE(w.size() >= 10);
    CHECK(w[1] == std::to_string(t["gpus"].get<int>()));
    CHECK(w[2] == (t["gpu_model"].is_null() ? "-" : t["gpu_model"].get<std::string>()));
    CHECK(w[3] == std::to_string(t["vcpu"].get<int>()));
    CHECK(w[4] == Fixed(t["memory_gib"], 0));
    CHECK(w[5] == Fixed(t["price_usd_per_h"], 3));
    CHECK(w[6] ==
          (t["spot_price_usd_per_h"].is_null() ? "-" : Fixed(t["spot_price_usd_per_h"], 3)));
    CHECK(t["from_scenario"] == false);
  }
}

TEST_CASE(
    "migsim validate --json gives the variants the text describes, and bad input stays exit 2",
    "[cli][json]") {
  const std::string file = Source("scenarios/mig-strategies.json");
  const Json j = Document(Run("validate " + file + " --json"));
  const std::string text = Run("validate " + file).out;
  CHECK(j["valid"] == true);
  CHECK(j["path"] == file);
  CHECK_THAT(text, Catch::StartsWith(file + ": valid. " + j["name"].get<std::string>()));
  size_t variants = 0;
  for (const std::string& line : Lines(text)) variants += line.rfind("variant ", 0) == 0;
  REQUIRE(j["variants"].size() == variants);
  for (const Json& v : j["variants"]) {
    CHECK_THAT(text, Catch::Contains("variant " + v["name"].get<std::string>()));
    for (const Json& n : v["nodes"]) {
      CHECK_THAT(text, Catch::Contains(n["advertised"].get<std::string>()));
    }
    for (const Json& w : v["workloads"]) CHECK_THAT(text, Catch::Contains(w.get<std::string>()));
  }
  const Captured bad = Run("validate /nonexistent.json --json");
  CHECK(bad.exit_code == 2);
  CHECK(bad.out.empty());
  CHECK_THAT(bad.err, Catch::Contains("/nonexistent.json"));
}

TEST_CASE("migsim calibrate --json gives the fit and each point as the text", "[cli][json]") {
  const std::string csv = Source("scenarios/measurements/migperf-bert-base-inference.csv");
  const Json j = Document(Run("calibrate " + csv + " --json"));
  const std::string text = Run("calibrate " + csv).out;
  CHECK_THAT(text, Catch::Contains("alpha  " + Fixed(j["alpha"], 4) + "\nbeta   " +
                                   Fixed(j["beta"], 4) + "\nR^2    " + Fixed(j["r_squared"], 4)));
  CHECK(j["points_count"] == j["points"].size());
  for (const Json& p : j["points"]) {
    const std::vector<std::string> w = Words(LineOf(text, std::to_string(p["line"].get<int>())));
    REQUIRE(w.size() == 8);
    CHECK(w[1] == p["gpu_model"]);
    CHECK(w[2] == p["kind"]);
    CHECK(w[5] == Fixed(p["measured"], 4));
    CHECK(w[6] == Fixed(p["fitted"], 4));
    char error[32];
    std::snprintf(error, sizeof error, "(%+.1f%%)", p["error_percent"].get<double>());
    CHECK(w[7] == error);
  }
}

TEST_CASE("migsim import --json reports the warnings and notices stderr shows, and needs --out",
          "[cli][json]") {
  test::ScratchDir dir("json-import");
  const std::string in = Source("scenarios/snapshot/");
  const std::string out = dir.Path("scenario.json");
  const Captured c = Run("import --nodes " + in + "nodes.json --pods " + in + "pods.json --out " +
                         out + " --json");
  const Json j = Document(c);
  CHECK(j["scenario_file"] == out);
  CHECK(j["name"] == "snapshot");
  CHECK(fs::exists(out));
  std::vector<std::string> warnings, notices;
  for (const std::string& line : Lines(c.err)) {
    if (line.rfind("warning: ", 0) == 0) warnings.push_back(line.substr(9));
    if (line.rfind("import: ", 0) == 0) notices.push_back(line.substr(8));
  }
  CHECK(j["warnings"].get<std::vector<std::string>>() == warnings);
  CHECK(j["notices"].get<std::vector<std::string>>() == notices);
  CHECK_FALSE(notices.empty());
  const Captured to_stdout =
      Run("import --nodes " + in + "nodes.json --pods " + in + "pods.json --json");
  CHECK(to_stdout.exit_code == 2);
  CHECK(to_stdout.out.empty());
  CHECK_THAT(to_stdout.err, Catch::Contains("--json"));
}

// Every run of the JSON against sweep.csv's row: the point, each axis value and each metric.
void CheckRunsAgainstCsv(const Json& j, const std::string& csv_text) {
  const std::vector<std::vector<std::string>> csv = Csv(csv_text);
  REQUIRE(csv.size() == j["runs"].size() + 1);
  const std::vector<std::string>& header = csv[0];
  for (size_t r = 0; r < j["runs"].size(); ++r) {
    const Json& run = j["runs"][r];
    const std::vector<std::string>& row = csv[r + 1];
    REQUIRE(row.size() == header.size());
    CHECK(row[0] == std::to_string(run["point"].get<size_t>()));
    size_t metrics = 0;
    for (size_t c = 1; c < header.size(); ++c) {
      if (run["values"].contains(header[c])) {
        const Json& v = run["values"][header[c]];
        CHECK(row[c] == (v.is_null() ? "" : v.dump()));
      } else if (header[c] == "variant") {
        CHECK(row[c] == run["variant"]);
      } else {
        REQUIRE(run["metrics"].contains(header[c]));
        CheckCell(row[c], run["metrics"][header[c]]);
        ++metrics;
      }
    }
    CHECK(metrics == run["metrics"].size());
  }
}

TEST_CASE("migsim sweep --json holds sweep.csv's runs, and with --out writes the same CSV",
          "[cli][json]") {
  test::ScratchDir dir("json-sweep");
  const std::string sweep = Source("scenarios/sweeps/superres-nodes.json");
  const Json j = Document(Run("sweep " + sweep + " -q --json --out " + dir.Path("out")));
  CHECK(j["seed_intervals"].is_array());  // its "/seed" axis has two seeds
  CHECK(j["columns"].size() == j["column_titles"].size());
  CheckRunsAgainstCsv(j, ReadText(dir.Path("out/sweep.csv")));
  // The same sweep in two shards, merged: the same JSON.
  for (const char* shard : {"0/2", "1/2"}) {
    REQUIRE(
        Run("sweep " + sweep + " -q --shard " + shard + " --out " + dir.Path("shards")).exit_code ==
        0);
  }
  const Json merged = Document(Run("merge " + dir.Path("shards") + " --json"));
  CHECK(merged == j);
}

TEST_CASE("migsim sweep --json over seeds gives the interval table's means, half-widths and n",
          "[cli][json]") {
  test::ScratchDir dir("json-seeds");
  const std::string sweep = Source("scenarios/sweeps/faults-training-seeds.json");
  const Json j = Document(Run("sweep " + sweep + " -q --json --out " + dir.Path("out")));
  CheckRunsAgainstCsv(j, ReadText(dir.Path("out/sweep.csv")));
  const std::string table = Run("sweep " + sweep + " -q").out;
  REQUIRE(j["seed_intervals"].is_array());
  REQUIRE(!j["seed_intervals"].empty());
  for (const Json& g : j["seed_intervals"]) {
    CHECK(g["values"].find("/seed") == g["values"].end());
    // The mean over the runs of the group, from the runs (sweep.csv's rows).
    std::vector<double> makespans;
    for (const Json& run : j["runs"]) {
      bool same = run["variant"] == g["variant"];
      for (auto v = g["values"].begin(); v != g["values"].end(); ++v) {
        same = same && run["values"][v.key()] == v.value();
      }
      if (same && !run["metrics"]["makespan_s"].is_null()) {
        makespans.push_back(run["metrics"]["makespan_s"]);
      }
    }
    const Json& m = g["metrics"]["makespan_s"];
    REQUIRE(m["n"] == makespans.size());
    double mean = 0;
    for (double v : makespans) mean += v / static_cast<double>(makespans.size());
    CHECK(m["mean"].get<double>() == Approx(mean));
    // As the table's cell "mean ±half-width" shows it.
    CHECK_THAT(table, Catch::Contains(Fixed(m["mean"], 1) + " \u00b1" + Fixed(m["half_width"], 1)));
  }
}

TEST_CASE("migsim plan --json gives plan.csv's rows in the table's order and the seeds' intervals, "
          "rounded as run --json",
          "[cli][json]") {
  test::ScratchDir dir("json-plan");
  const std::string plan = Source("scenarios/plans/capacity-inference-mix.plan.json");
  const Json j = Document(Run("plan " + plan + " -q --json --out " + dir.Path("out")));
  CheckRoundedToMicro(j);
  const std::vector<std::vector<std::string>> csv = Csv(ReadText(dir.Path("out/plan.csv")));
  REQUIRE(csv.size() == j["configurations"].size() + 1);
  const std::vector<std::string>& header = csv[0];
  const std::map<std::string, std::string> renamed = {{"cost_per_hour", "cost_usd_per_h"},
                                                      {"cost_per_month", "cost_usd_per_month"},
                                                      {"energy_cost", "energy_usd"}};
  for (size_t r = 0; r < j["configurations"].size(); ++r) {
    const Json& row = j["configurations"][r];
    for (size_t c = 0; c < header.size(); ++c) {
      if (header[c] == "pools") continue;  // a list in the JSON, "pool:nodes:..." in the CSV
      const auto it = renamed.find(header[c]);
      const std::string key = it == renamed.end() ? header[c] : it->second;
      INFO(key);
      REQUIRE(row.contains(key));
      CheckCell(csv[r + 1][c], row[key]);
    }
  }
  REQUIRE(j["seeds"].size() == 2);
  const std::string table = Run("plan " + plan + " -q").out;
  REQUIRE(j["seed_intervals"].is_array());
  for (const Json& s : j["seed_intervals"]) {
    CHECK(s["seeds"] == 2);
    const Json& p95 = s["p95_queueing_latency_s"];
    CHECK_THAT(table,
               Catch::Contains(Fixed(p95["mean"], 1) + " \u00b1" + Fixed(p95["half_width"], 1)));
  }
  if (!j["recommendation"].is_null()) {
    CHECK_THAT(table,
               Catch::Contains("recommendation: " +
                               j["recommendation"]["configuration"].get<std::string>() + " with "));
    CHECK(j["recommendation"]["configuration"] == j["configurations"][0]["configuration"]);
  }
}

TEST_CASE("migsim openb --json gives the tables' rows, with the MIG edition's, rounded as run --json",
          "[cli][json]") {
  test::ScratchDir dir("json-openb");
  const std::string args = "openb --data " + Source("tests/golden/openb-small") +
                           " --trace small --policy all --seeds 1-3 --mig -q";
  const Json j = Document(Run(args + " --json --out " + dir.Path("out")));
  CHECK(fs::exists(dir.Path("out/alloc_discrete.csv")));
  CheckRoundedToMicro(j);
  const std::string text = Run(args).out;
  REQUIRE(!j["fill"].empty());
  CHECK(j["runs"] == 3 * j["fill"].size());
  for (const Json& row : j["fill"]) {
    const std::string line = LineOf(text, row["policy"]);
    INFO(line);
    CHECK(row["seeds"] == 3);
    for (const char* key : {"alloc_percent_at_100", "alloc_percent_at_130", "failed_pods"}) {
      CHECK_THAT(line, Catch::Contains(Fixed(row[key]["mean"], 2) + " \u00b1" +
                                       Fixed(row[key]["half_width"], 2)));
    }
  }
  REQUIRE(j["final_state"].size() == j["fill"].size());
  for (const Json& row : j["final_state"]) {
    // The policy's second line: the end-of-run table's.
    std::vector<std::vector<std::string>> rows;
    for (const std::string& line : Lines(text)) {
      const std::vector<std::string> w = Words(line);
      if (!w.empty() && w[0] == row["policy"]) rows.push_back(w);
    }
    REQUIRE(rows.size() >= 2);
    const std::vector<std::string>& w = rows[1];
    REQUIRE(w.size() == 13);
    CHECK(w[2] == Fixed(row["cpu_percent"], 2));
    CHECK(w[3] == Fixed(row["memory_percent"], 2));
    CHECK(w[4] == Fixed(row["gpus_allocated"], 1));
    CHECK(w[12] == Fixed(row["xr_percent"], 2));
  }
  REQUIRE(j["mig"].is_object());
  for (const Json& row : j["mig"]["rows"]) {
    const std::vector<std::string> w = Words(LineOf(text, row["variant"]));
    REQUIRE(w.size() == 6);
    CHECK(w[1] == row["trace"]);
    CHECK(w[2] == Fixed(row["placed_percent_at_100"], 2));
    CHECK(w[5] == Fixed(row["mig_frag_percent_at_100"], 2));
  }
}

}  // namespace
}  // namespace migsim
