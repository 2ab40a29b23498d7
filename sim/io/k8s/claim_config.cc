// A shared ResourceClaim's spec.devices.config: opaque parameters for a driver. migsim
// reads NVIDIA's DRA driver's (driver gpu.nvidia.com, kind GpuConfig or MigDeviceConfig),
// whose `sharing` says how the pods sharing the claim share its devices; the scenario's
// loader checks it (shared_claim_json.cc) at the YAML places recorded here. Another
// driver's configuration, or another kind, is an error: it could change how the devices
// are used, and migsim would silently run them as time-sliced.

#include <string>

#include "sim/io/k8s/workload_objects.h"

namespace migsim::k8s {
namespace {

using io::Json;

constexpr std::string_view kNvidiaDriver = "gpu.nvidia.com";

// One config entry's opaque parameters; the `sharing` node, absent when it has none.
ManifestNode EntrySharing(const ManifestNode& entry, ManifestLog* log) {
  const ManifestNode opaque = entry["opaque"];
  if (!opaque.present()) {
    entry.Fail(log,
               "missing required field 'opaque' (migsim reads NVIDIA's GpuConfig and "
               "MigDeviceConfig parameters)");
    return opaque;
  }
  const ManifestNode driver = opaque["driver"];
  if (const std::string name = driver.String(log); name != kNvidiaDriver && log->ok()) {
    (driver.present() ? driver : opaque)
        .Fail(log, "configuration for driver '" + name +
                       "' is not modelled: migsim reads NVIDIA's DRA driver's (gpu.nvidia.com)");
    return opaque["sharing"];  // absent
  }
  const ManifestNode parameters = opaque["parameters"];
  // Both kinds carry `sharing` alike (a whole GPU's, a MIG device's).
  parameters["kind"].Choice(log, "kind of parameters", {"GpuConfig", "MigDeviceConfig"});
  return parameters["sharing"];
}

}  // namespace

Json ClaimSharing(const ManifestNode& config, ManifestLog* log, ManifestJsonBuilder* b) {
  Json sharing;  // null
  for (const ManifestNode& entry : config.Elements(log)) {
    if (!entry.ExpectMap(log)) break;
    const ManifestNode found = EntrySharing(entry, log);
    if (!log->ok()) break;
    if (!found.present()) continue;
    if (!sharing.is_null()) {
      found.Fail(log,
                 "a second sharing configuration: migsim models one for all the claim's "
                 "devices");
      break;
    }
    sharing = b->ToJson(found, "/sharing");
  }
  return sharing;
}

}  // namespace migsim::k8s
