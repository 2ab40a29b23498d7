// Test plugins, one shared library per behaviour chosen at compile time
// (MIGSIM_FIXTURE): a well-behaved first fit, a wrong ABI version, a missing symbol, a
// plugin that refuses its params, one that answers a node that does not exist, one whose
// name is NULL, a first fit the loader never unloads (linked with -z nodelete), a first
// fit whose queue order is no order at all (every pod before every other), and one whose
// queue order reads labels and namespaces (label "rank", then namespace name, then id).
#include <cstdio>
#include <cstring>

#include "policies/plugin/migsim_policy_plugin.h"

#define EXPORT extern "C" __attribute__((visibility("default")))

namespace {
int instance = 0;
}

EXPORT uint32_t migsim_policy_abi_version() {
#if MIGSIM_FIXTURE == 1
  return MIGSIM_POLICY_ABI_VERSION + 1;
#else
  return MIGSIM_POLICY_ABI_VERSION;
#endif
}

EXPORT void* migsim_policy_create(const char* params_json, char* error, size_t error_size) {
#if MIGSIM_FIXTURE == 3
  if (std::strcmp(params_json, "{}") != 0) {
    std::snprintf(error, error_size, "unknown param in %s", params_json);
    return nullptr;
  }
#else
  (void)params_json, (void)error, (void)error_size;
#endif
  return &instance;
}

EXPORT void migsim_policy_destroy(void*) {}

#if MIGSIM_FIXTURE == 5
EXPORT const char* migsim_policy_name(void*) { return nullptr; }
#elif MIGSIM_FIXTURE != 2
EXPORT const char* migsim_policy_name(void*) { return "fixture"; }
#endif

EXPORT int migsim_policy_place(void*, const migsim_view* view, const migsim_pod*,
                               migsim_placement* out) {
#if MIGSIM_FIXTURE == 4
  (void)view;
  out->node = 999;
  return 1;
#else
  for (uint32_t n = 0; n < view->node_count; ++n) {
    if (view->fits(view->fits_context, n)) {
      out->node = n;
      return 1;
    }
  }
  return 0;
#endif
}

#if MIGSIM_FIXTURE == 7
EXPORT int migsim_policy_queue_less(void*, const migsim_queued_pod*, const migsim_queued_pod*) {
  return 1;
}
#endif

#if MIGSIM_FIXTURE == 8
namespace {
const char* Rank(const migsim_queued_pod* pod) {
  for (uint32_t i = 0; i < pod->label_count; ++i) {
    if (std::strcmp(pod->labels[i].key, "rank") == 0) return pod->labels[i].value;
  }
  return "";
}
}  // namespace

EXPORT int migsim_policy_queue_less(void*, const migsim_queued_pod* a, const migsim_queued_pod* b) {
  if (const int c = std::strcmp(Rank(a), Rank(b)); c != 0) return c < 0;
  if (const int c = std::strcmp(a->namespace_name, b->namespace_name); c != 0) return c < 0;
  return a->id < b->id;
}
#endif
