// A scenario's own GPU models and node types (`cluster.gpu_models`, `cluster.node_types`,
// `cluster.catalog`): what loads, and every problem reported at its file and pointer.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "sim/cluster/mig_layout.h"
#include "sim/io/hardware_catalog.h"
#include "sim/io/measurements_csv.h"
#include "sim/io/scenario_json.h"
#include "tests/support/sweep_files.h"

namespace migsim {
namespace {

using nlohmann::ordered_json;

// A valid MIG-capable model with four slots, like scenarios/custom-gpu.json's.
ordered_json X4() {
  return ordered_json::parse(R"({
    "product_label": "Example-X4", "aliases": ["X4-32GB"],
    "memory_mib": 32768, "sms": 68, "max_watts": 250, "idle_watts": 30,
    "mig": {"memory_slices": 4, "compute_slices": 4, "placements": "inferred", "profiles": [
      {"name": "1g.8gb", "id": 14, "compute_slices": 1, "memory_slices": 1, "memory_gib": 7.5,
       "sms": 16, "max_count": 4, "starts": [0, 1, 2, 3], "classic": true},
      {"name": "1g.8gb+me", "id": 21, "compute_slices": 1, "memory_slices": 1,
       "memory_gib": 7.5, "sms": 16, "max_count": 1, "starts": [0, 1, 2, 3]},
      {"name": "2g.16gb", "id": 5, "compute_slices": 2, "memory_slices": 2, "memory_gib": 15.5,
       "sms": 32, "max_count": 2, "starts": [0, 2], "classic": true},
      {"name": "4g.32gb", "id": 0, "compute_slices": 4, "memory_slices": 4, "memory_gib": 31.5,
       "sms": 64, "max_count": 1, "starts": [0], "classic": true}]},
    "sources": ["invented"]})");
}

ordered_json X4Node() {
  return ordered_json::parse(R"({"vcpu": 32, "memory_gib": 256, "gpus": 4, "gpu_model": "X4",
    "price_per_hour": 4, "spot_price_per_hour": 1.6, "cloud": "example", "region": "lab-1",
    "price_date": "2026-11-28"})");
}

// A scenario whose cluster defines `models` and `types` and runs one pool of `pool_type`.
std::string Doc(const ordered_json& models, const ordered_json& types,
                const std::string& pool_type = "x4") {
  ordered_json doc = {{"name", "t"}, {"description", "d"}, {"workloads", ordered_json::object()}};
  doc["cluster"]["gpu_models"] = models;
  doc["cluster"]["node_types"] = types;
  doc["cluster"]["nodes"]["a"]["type"] = pool_type;
  return doc.dump();
}

// The X4 model with `patch` merged into it (RFC 7386), as the only model of a scenario.
std::string PatchedModel(const std::string& patch) {
  ordered_json model = X4();
  model.merge_patch(ordered_json::parse(patch));
  return Doc({{"X4", model}}, {{"x4", X4Node()}});
}

// The X4 model with its first profile replaced by `profile` merged into the original.
std::string PatchedProfile(const std::string& patch) {
  ordered_json model = X4();
  model["mig"]["profiles"][0].merge_patch(ordered_json::parse(patch));
  return Doc({{"X4", model}}, {{"x4", X4Node()}});
}

std::string PatchedNode(const std::string& patch) {
  ordered_json node = X4Node();
  node.merge_patch(ordered_json::parse(patch));
  return Doc({{"X4", X4()}}, {{"x4", node}});
}

std::string MessageOf(const std::string& text, const std::string& label = "t.json") {
  Result<ScenarioFile> loaded = ParseScenarioText(text, label);
  REQUIRE_FALSE(loaded.ok());
  return loaded.status().ToString();
}

const Scenario& Base(const ScenarioFile& file) { return file.variants.front().second; }

void WriteText(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text;
}

constexpr char kModel[] = "t.json:/cluster/gpu_models/X4";

}  // namespace

TEST_CASE("a scenario's own MIG model and node type load and back its nodes", "[io][catalog]") {
  Result<ScenarioFile> loaded =
      ParseScenarioText(Doc({{"X4", X4()}}, {{"x4", X4Node()}}), "t.json");
  REQUIRE(loaded.ok());
  const NodeSpec& node = Base(loaded.value()).cluster.nodes.at(0);
  REQUIRE(node.type->gpu != nullptr);
  const GpuModel& x4 = *node.type->gpu;
  CHECK(node.type->gpu_owner.get() == &x4);
  CHECK(x4.name == "X4");
  CHECK(x4.product_label == "Example-X4");
  CHECK(x4.aliases == std::vector<std::string>{"X4-32GB"});
  CHECK(x4.memory_slices == 4);
  CHECK(x4.compute_slices == 4);
  CHECK(x4.inferred_placements);
  REQUIRE(x4.profiles.size() == 4);
  CHECK(x4.profiles[1].media_extensions);
  CHECK(x4.profiles[1].ResourceSuffix() == "1g.8gb.me");
  CHECK_FALSE(x4.profiles[1].classic);
  CHECK(x4.profiles[2].starts == std::vector<int>{0, 2});
  CHECK(node.type->spot_price_per_hour == 1.6);
  CHECK(node.type->cloud == "example");
  CHECK(node.type->region == "lab-1");
  CHECK(node.type->price_date == "2026-11-28");
  // A30's placement table: 5 maximal layouts with every profile, 5 with the classic ones.
  CHECK(EnumerateMaximalLayouts(x4, true).size() == 5);
  CHECK(EnumerateMaximalLayouts(x4, false).size() == 5);
}

TEST_CASE("job classes and aliases resolve against the scenario's own models", "[io][catalog]") {
  ordered_json doc = ordered_json::parse(Doc({{"X4", X4()}}, {{"x4", X4Node()}}));
  doc["job_classes"]["j"]["run_s"] = {{"X4-32GB/2g.16gb", 30}, {"1g.8gb", 60}};
  Result<ScenarioFile> loaded = ParseScenarioText(doc.dump(), "t.json");
  REQUIRE(loaded.ok());
  doc["job_classes"]["j"]["run_s"] = {{"X4/3g.24gb", 30}};
  CHECK(MessageOf(doc.dump()) ==
        "t.json:/job_classes/j/run_s/X4~13g.24gb: '3g.24gb' is not a device kind of X4 (gpu or "
        "one of its MIG profiles)");
}

TEST_CASE("a user's model may not take a name, label or alias a model already has",
          "[io][catalog]") {
  CHECK(MessageOf(Doc({{"A100-SXM4-40GB", X4()}}, {{"x4", X4Node()}})) ==
        "t.json:/cluster/gpu_models/A100-SXM4-40GB: 'A100-SXM4-40GB' is already a name, product "
        "label or alias of GPU model 'A100-SXM4-40GB' (built in); give this name another value");
  CHECK(MessageOf(PatchedModel(R"({"product_label": "NVIDIA-A30"})")) ==
        std::string(kModel) +
            "/product_label: 'NVIDIA-A30' is already a name, product label or alias of GPU model "
            "'A30-24GB' (built in); give this product label another value");
  CHECK(MessageOf(PatchedModel(R"({"aliases": ["A100-40GB"]})")) ==
        std::string(kModel) +
            "/aliases/0: 'A100-40GB' is already a name, product label or alias of GPU model "
            "'A100-SXM4-40GB' (built in); give this alias another value");
  CHECK(MessageOf(PatchedModel(R"({"aliases": ["X4"]})")) ==
        std::string(kModel) + "/aliases/0: 'X4' repeats this model's name");
  CHECK(MessageOf(PatchedModel(R"({"aliases": ["Y", "Y"]})")) ==
        std::string(kModel) + "/aliases/1: 'Y' repeats this model's alias");
  ordered_json second = X4();
  second["aliases"] = ordered_json::array();
  CHECK(MessageOf(Doc({{"X4", X4()}, {"X5", second}}, {{"x4", X4Node()}})) ==
        "t.json:/cluster/gpu_models/X5/product_label: 'Example-X4' is already a name, product "
        "label or alias of GPU model 'X4' (defined earlier); give this product label another "
        "value");
  second["product_label"] = "Example-X5";
  second["aliases"] = {"X4-32GB"};
  CHECK(MessageOf(Doc({{"X4", X4()}, {"X5", second}}, {{"x4", X4Node()}})) ==
        "t.json:/cluster/gpu_models/X5/aliases/0: 'X4-32GB' is already a name, product label or "
        "alias of GPU model 'X4' (defined earlier); give this alias another value");
}

TEST_CASE("a GPU model's fields are checked against their ranges", "[io][catalog]") {
  const std::string at = kModel;
  CHECK(MessageOf(PatchedModel(R"({"memory_mib": null})")) ==
        at + ": missing required field 'memory_mib'");
  CHECK(MessageOf(PatchedModel(R"({"memroy_mib": 1})")) ==
        at + "/memroy_mib: unknown field 'memroy_mib' (expected one of: product_label, aliases, "
             "memory_mib, sms, max_watts, idle_watts, mig, sources)");
  CHECK(MessageOf(PatchedModel(R"({"sms": 0})")) == at + "/sms: must be >= 1");
  CHECK(MessageOf(PatchedModel(R"({"idle_watts": 250})")) ==
        at + "/idle_watts: must be > 0 and below max_watts (250)");
  CHECK(MessageOf(PatchedModel(R"({"idle_watts": 0})")) ==
        at + "/idle_watts: must be > 0 and below max_watts (250)");
  CHECK(MessageOf(PatchedModel(R"({"product_label": "Example X4"})")) ==
        at + "/product_label: 'Example X4' is not a Kubernetes label value (at most 63 "
             "characters of letters, digits, '.', '_' and '-', alphanumeric at both ends)");
  CHECK(MessageOf(PatchedModel(R"({"sources": [""]})")) == at + "/sources/0: must not be empty");
  CHECK(MessageOf(Doc({{"X/4", X4()}}, {{"x4", X4Node()}})) ==
        "t.json:/cluster/gpu_models/X~14: 'X/4' is not a GPU model name: use letters, digits, "
        "'.', '_' and '-'");
  CHECK(MessageOf(PatchedModel(R"({"mig": {"placements": "guessed"}})")) ==
        at + "/mig/placements: 'guessed' is not a placement source (valid: documented, inferred)");
  CHECK(MessageOf(PatchedModel(R"({"mig": {"memory_slices": 17}})")) ==
        at + "/mig/memory_slices: must be <= 16");
  CHECK(MessageOf(PatchedModel(R"({"mig": {"profiles": []}})")) ==
        at + "/mig/profiles: must list at least one profile");
}

TEST_CASE("a MIG profile must fit its model's slices and placements", "[io][catalog]") {
  const std::string at = std::string(kModel) + "/mig/profiles/0";
  CHECK(MessageOf(PatchedProfile(R"({"compute_slices": 5})")) ==
        at + "/compute_slices: must be <= 4");
  CHECK(MessageOf(PatchedProfile(R"({"memory_slices": 0})")) ==
        at + "/memory_slices: must be >= 1");
  CHECK(MessageOf(PatchedProfile(R"({"max_count": 0})")) == at + "/max_count: must be >= 1");
  CHECK(MessageOf(PatchedProfile(R"({"sms": 69})")) == at + "/sms: must be <= 68");
  CHECK(MessageOf(PatchedProfile(R"({"memory_gib": 33})")) == at + "/memory_gib: must be <= 32");
  CHECK(MessageOf(PatchedProfile(R"({"memory_slices": 2, "starts": [0, 3]})")) ==
        at + "/starts/1: must be <= 2");
  CHECK(MessageOf(PatchedProfile(R"({"starts": [0, 0]})")) == at + "/starts/1: repeats start 0");
  CHECK(MessageOf(PatchedProfile(R"({"starts": []})")) ==
        at + "/starts: must list at least one start");
  CHECK(MessageOf(PatchedProfile(R"({"name": "2g.16gb"})")) ==
        at.substr(0, at.size() - 1) + "2/name: profile '2g.16gb' is listed twice");
  CHECK(MessageOf(PatchedProfile(R"({"name": "1g 8gb"})")) ==
        at + "/name: '1g 8gb' is not a profile name: use letters, digits, '.', '_' and '-' (and "
             "\"+me\" at the end for media extensions)");
  CHECK(MessageOf(PatchedProfile(R"({"id": null})")) == at + ": missing required field 'id'");
}

TEST_CASE("a node type names a known model and gives its price date as a date", "[io][catalog]") {
  CHECK(MessageOf(PatchedNode(R"({"gpu_model": "X5"})"))
            .starts_with("t.json:/cluster/node_types/x4/gpu_model: unknown GPU model 'X5' (valid: "
                         "A100-SXM4-40GB, "));
  CHECK(MessageOf(PatchedNode(R"({"gpu_model": "X5"})")).ends_with(", T4, B200-180GB, L4, L40S, X4)"));
  CHECK(MessageOf(PatchedNode(R"({"price_date": "28/11/2026"})")) ==
        "t.json:/cluster/node_types/x4/price_date: '28/11/2026' is not a date (YYYY-MM-DD, "
        "YYYY-MM or YYYY)");
  CHECK(MessageOf(PatchedNode(R"({"price_date": "2026-13"})"))
            .ends_with("is not a date "
                       "(YYYY-MM-DD, YYYY-MM "
                       "or YYYY)"));
  CHECK(MessageOf(PatchedNode(R"({"spot_price_per_hour": -1})")) ==
        "t.json:/cluster/node_types/x4/spot_price_per_hour: must be >= 0");
  CHECK(MessageOf(PatchedNode(R"({"cloud": ""})")) ==
        "t.json:/cluster/node_types/x4/cloud: must not be empty");
  ordered_json doc = ordered_json::parse(PatchedNode("{}"));
  doc["cluster"]["node_types"]["x4"]["price_date"] = "2026-11";
  CHECK(ParseScenarioText(doc.dump(), "t.json").ok());
}

TEST_CASE("catalog files named by a scenario load relative to it, errors at their own pointer",
          "[io][catalog]") {
  const std::filesystem::path dir = test::SweepTempDir("catalog-files");
  WriteText(dir / "x4.json", ordered_json{{"gpu_models", {{"X4", X4()}}}}.dump());
  WriteText(dir / "x4-nodes.json", ordered_json{{"node_types", {{"x4", X4Node()}}}}.dump());
  ordered_json doc = {{"name", "t"}, {"description", "d"}, {"workloads", ordered_json::object()}};
  doc["cluster"]["catalog"] = {"x4.json", "x4-nodes.json"};
  doc["cluster"]["nodes"]["a"]["type"] = "x4";
  const std::string scenario = (dir / "s.json").string();
  Result<ScenarioFile> loaded = ParseScenarioText(doc.dump(), scenario);
  REQUIRE(loaded.ok());
  CHECK(Base(loaded.value()).cluster.nodes.at(0).type->gpu->name == "X4");

  SECTION("a user catalog lists the user's definitions after the built-ins, marked") {
    WriteText(dir / "s.json", doc.dump());
    Result<HardwareCatalog> catalog = LoadUserCatalog(scenario);
    REQUIRE(catalog.ok());
    CHECK(catalog.value().gpu_models().size() == BuiltinCatalog().gpu_models().size() + 1);
    CHECK(catalog.value().gpu_models().back().user);
    CHECK_FALSE(catalog.value().gpu_models().front().user);
    CHECK(catalog.value().IsUser(*catalog.value().FindNodeType("x4")));
    CHECK(LoadUserCatalog((dir / "x4.json").string()).ok());
  }
  SECTION("measurements for calibrate may name the user's models") {
    const std::string csv =
        "gpu_model,kind,speed\nX4,4g.32gb,100\nX4-32GB,1g.8gb,30\nX4,2g.16gb,55\n";
    Result<HardwareCatalog> catalog = LoadUserCatalog((dir / "x4.json").string());
    REQUIRE(catalog.ok());
    Result<std::vector<MeasuredPoint>> points = ParseMeasurements(csv, "m.csv", catalog.value());
    REQUIRE(points.ok());
    REQUIRE(points.value().size() == 2);
    CHECK(points.value()[0].gpu_model == "X4");
    CHECK(points.value()[0].point.ratio == Approx(0.3));
    CHECK(ParseMeasurements(csv, "m.csv").status().ToString() ==
          "m.csv:line 2: unknown GPU model 'X4'");
  }
  SECTION("a definition repeated across files is refused") {
    doc["cluster"]["catalog"] = {"x4.json", "x4.json"};
    CHECK(MessageOf(doc.dump(), scenario) ==
          (dir / "x4.json").string() +
              ":/gpu_models/X4: 'X4' is already a name, product label or alias of GPU model 'X4' "
              "(defined earlier); give this name another value");
    doc["cluster"]["catalog"] = {"x4.json", "x4-nodes.json"};
    doc["cluster"]["node_types"] = {{"x4", X4Node()}};
    CHECK(MessageOf(doc.dump(), scenario) ==
          scenario + ":/cluster/node_types/x4: node type 'x4' is defined twice");
  }
  SECTION("a bad catalog file is reported at its own file and pointer") {
    ordered_json bad = X4();
    bad["sms"] = 0;
    WriteText(dir / "bad.json", ordered_json{{"gpu_models", {{"X4", bad}}}}.dump());
    doc["cluster"]["catalog"] = "bad.json";
    CHECK(MessageOf(doc.dump(), scenario) ==
          (dir / "bad.json").string() + ":/gpu_models/X4/sms: must be >= 1");
    doc["cluster"]["catalog"] = "missing.json";
    CHECK(MessageOf(doc.dump(), scenario) ==
          scenario + ":/cluster/catalog: " + (dir / "missing.json").string() +
              ": cannot read file: No such file or directory");
    doc["cluster"]["catalog"] = 3;
    CHECK(MessageOf(doc.dump(), scenario) ==
          scenario + ":/cluster/catalog: expected a path or an array of paths, got a number");
  }
}

}  // namespace migsim
