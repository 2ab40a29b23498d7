#pragma once
// Internal to sim/io: the NVIDIA device plugin's configuration file (`version: v1`,
// `flags.migStrategy`, `sharing.timeSlicing`, `sharing.mps`) as a ConfigMap of the manifests
// carries it, applied to the node pools the overlay names (manifest_overlay.device_plugin).
// The format and what is read of it are in scenarios/README.md.

#include <string>
#include <string_view>
#include <vector>

#include "sim/io/json_reader.h"
#include "sim/io/k8s/manifest_node.h"
#include "sim/io/k8s/manifest_objects.h"
#include "sim/io/k8s/manifest_overlay.h"
#include "workloads/scenario.h"

namespace migsim::k8s {

// A ConfigMap's `data` (`doc` is the object's root).
ConfigMapObject ReadConfigMapObject(const ManifestNode& doc, ManifestLog* log);
// Marks the ConfigMap values of `set` that are literal blocks in `text` (their file), so that
// the lines of an embedded file are reported as lines of the manifest.
void MarkLiteralBlocks(std::string_view text, ManifestSet* set);

}  // namespace migsim::k8s

namespace migsim::io {

DevicePluginOverlay ReadDevicePluginOverlay(LoadContext* ctx, const JsonRef& ref);

// Sets the `plugin` of the nodes of the named pools from the ConfigMap's configuration.
// Errors: at the overlay's pointer (no such ConfigMap, key or pool; a pool that sets
// `device_plugin` itself) or in the ConfigMap, "data.<key>.<path in the file> (line L)".
void ApplyDevicePluginConfigMap(LoadContext* ctx, const k8s::ManifestSet& set,
                                const DevicePluginOverlay& overlay, Scenario* scenario);

}  // namespace migsim::io
