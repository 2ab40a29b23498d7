#include "fuzz/fuzz_inputs.h"

#include <array>

#include "fuzz/plan_scenario.h"
#include "sim/cluster/gpu_model.h"
#include "sim/core/status.h"
#include "sim/dra/resource_slice.h"
#include "sim/dra/selector.h"
#include "sim/io/k8s/manifest_objects.h"
#include "sim/io/k8s/snapshot_import.h"
#include "sim/io/measurements_csv.h"
#include "sim/io/mig_parted_yaml.h"
#include "sim/io/openb_csv.h"
#include "sim/io/plan_json.h"
#include "sim/io/pod_list_csv.h"
#include "sim/io/scenario_json.h"
#include "sim/io/sweep_json.h"
#include "sim/io/telemetry/pod_observations.h"
#include "sim/io/telemetry/prometheus_matrix.h"

namespace migsim::fuzz {
namespace {

// "" for Ok, or an error that keeps the promises of fuzz_inputs.h.
std::string Verdict(const Status& error, const std::string& label) {
  if (error.ok()) return "";
  const std::string text = error.ToString();
  if (error.code() == StatusCode::kInternal) return "an internal error: " + text;
  if (!text.starts_with(label + ":")) return "an error that does not name its file: " + text;
  if (error.message().empty()) return "an error without a message: " + text;
  return "";
}

template <typename T>
std::string Verdict(const Result<T>& result, const std::string& label) {
  return result.ok() ? "" : Verdict(result.status(), label);
}

std::string Scenario(std::string_view text) {
  return Verdict(ParseScenarioText(text, "fuzz.json", NamedFiles::kRefused), "fuzz.json");
}

std::string Sweep(std::string_view text) {
  return Verdict(ParseSweepText(text, "fuzz.json", NamedFiles::kRefused), "fuzz.json");
}

// Whatever scenario the plan names reads the repository's plan's scenario (compiled in).
std::string Plan(std::string_view text) {
  const ReadTextFile read = [](const std::string&) -> Result<std::string> {
    return std::string(kPlanScenario);
  };
  const std::string label = "plans/fuzz.json";
  return Verdict(ParsePlanText(text, label, read, NamedFiles::kRefused), label);
}

// Rows are then checked for unique names, as a pool and a trace do.
template <typename Row>
std::string OpenbRows(const Result<std::vector<Row>>& rows, std::string_view what) {
  if (!rows.ok()) return Verdict(rows, "fuzz.csv");
  return Verdict(CheckUniqueNames(rows.value(), "fuzz.csv", what), "fuzz.csv");
}

std::string OpenbNodes(std::string_view text) {
  return OpenbRows(ParseOpenbNodes(text, "fuzz.csv"), "node");
}

std::string OpenbPods(std::string_view text) {
  return OpenbRows(ParseOpenbPods(text, "fuzz.csv"), "pod");
}

std::string PodList(std::string_view text) {
  return Verdict(ParsePodList(text, "fuzz.csv"), "fuzz.csv");
}

std::string Measurements(std::string_view text) {
  return Verdict(ParseMeasurements(std::string(text), "fuzz.csv"), "fuzz.csv");
}

std::string MigParted(std::string_view text) {
  return Verdict(ParseMigParted(text, "fuzz.yaml"), "fuzz.yaml");
}

// Kubernetes manifests, as a scenario's `manifests` names them: the reader works on text.
// Every ConfigMap value is also read as the device plugin's config file, as the overlay's
// device_plugin would have it read.
std::string Manifests(std::string_view text) {
  const Result<k8s::ManifestSet> set = k8s::ParseManifests(text, "fuzz.yaml");
  if (!set.ok()) return Verdict(set, "fuzz.yaml");
  for (const k8s::ManifestObject& o : set.value().objects) {
    const auto* config_map = std::get_if<k8s::ConfigMapObject>(&o.body);
    for (size_t i = 0; config_map != nullptr && i < config_map->data.size(); ++i) {
      const std::string verdict =
          Verdict(k8s::CheckDevicePluginConfig(config_map->data[i]), "fuzz.yaml");
      if (!verdict.empty()) return verdict;
    }
  }
  return "";
}

// A cluster snapshot for `migsim import`: the nodes' text, a line "#pods", the pods' text
// (one input: libFuzzer mutates one buffer). The importer loads what it writes, so an Ok
// is a scenario that loads.
std::string Snapshot(std::string_view text) {
  constexpr std::string_view kSplit = "\n#pods\n";
  const size_t split = text.find(kSplit);
  const std::string_view nodes = text.substr(0, split);
  const std::string_view pods =
      split == std::string_view::npos ? std::string_view() : text.substr(split + kSplit.size());
  Result<k8s::SnapshotScenario> imported =
      k8s::ImportSnapshot(nodes, "nodes.json", pods, "pods.json", {});
  const bool pods_fault = !imported.ok() && imported.status().ToString().starts_with("pods.json");
  return Verdict(imported, pods_fault ? "pods.json" : "nodes.json");
}

// A DRA device selector (CEL subset), evaluated on every device of a dynamic-MIG A100 when
// it parses. Its errors name no file: they must name the expression instead.
std::string DraSelector(std::string_view text) {
  Result<dra::Selector> selector = dra::Selector::Parse(text);
  if (!selector.ok()) {
    const Status& error = selector.status();
    if (error.code() != StatusCode::kInvalidArgument)
      return "not InvalidArgument: " + error.ToString();
    if (!error.message().starts_with("selector '"))
      return "no expression named: " + error.message();
    return "";
  }
  static const dra::ResourceSlice slice = [] {
    const GpuModel& model = *FindGpuModel("A100-40GB");
    const std::vector<GpuMigSetting> gpus(1);
    return dra::BuildResourceSlice(model, gpus, true);
  }();
  for (const dra::Device& device : slice.devices) (void)selector.value().Matches(device);
  return "";
}

// A Prometheus query response (telemetry export), joined into pod observations when it
// parses: the join's errors must name the response's file too.
std::string Telemetry(std::string_view text) {
  Result<std::vector<telemetry::Series>> series =
      telemetry::ParsePrometheusResponse(text, "fuzz.json");
  if (!series.ok()) return Verdict(series, "fuzz.json");
  return Verdict(telemetry::JoinPodObservations(series.value()), "fuzz.json");
}

constexpr std::array<FuzzTarget, 12> kTargets = {{
    {"scenario_json", Scenario},
    {"sweep_json", Sweep},
    {"plan_json", Plan},
    {"openb_nodes", OpenbNodes},
    {"openb_pods", OpenbPods},
    {"pod_list_csv", PodList},
    {"measurements_csv", Measurements},
    {"mig_parted_yaml", MigParted},
    {"k8s_manifests", Manifests},
    {"snapshot_import", Snapshot},
    {"dra_selector", DraSelector},
    {"prometheus_json", Telemetry},
}};

}  // namespace

std::span<const FuzzTarget> FuzzTargets() { return kTargets; }

const FuzzTarget* FindFuzzTarget(std::string_view name) {
  for (const FuzzTarget& target : kTargets) {
    if (target.name == name) return &target;
  }
  return nullptr;
}

}  // namespace migsim::fuzz
