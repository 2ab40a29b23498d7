/* An example migsim policy plugin with a queue order (plugin ABI version 2): pending pods
 * asking for the least GPU go first — a shortest-job-first of size rather than time, which
 * lets small pods through while a large one waits — then the older pod. A pod's GPU is
 * counted in sevenths (an A100's or H100's compute slices): a whole GPU ("nvidia.com/gpu")
 * is 7, a MIG device "nvidia.com/mig-<g>g.<memory>" is g; other resources count nothing.
 * It places a pod on the first node that fits, and leaves the devices to the device plugin.
 * The scenario takes its order with "scheduler": {"queue_order": "policy"}. Params: {}. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "migsim_policy_plugin.h"

#define EXPORT __attribute__((visibility("default")))

static int instance; /* stateless: every instance is this one */

EXPORT uint32_t migsim_policy_abi_version(void) { return MIGSIM_POLICY_ABI_VERSION; }

static const char* skip_space(const char* c) {
  while (*c == ' ' || *c == '\n' || *c == '\t' || *c == '\r') ++c;
  return c;
}

EXPORT void* migsim_policy_create(const char* params_json, char* error, size_t error_size) {
  const char* open = skip_space(params_json);
  const char* close = *open == '{' ? skip_space(open + 1) : open;
  if (*open == '{' && *close == '}' && *skip_space(close + 1) == '\0') return &instance;
  snprintf(error, error_size, "takes no params, got %s", params_json);
  return NULL;
}

EXPORT void migsim_policy_destroy(void* p) { (void)p; }

EXPORT const char* migsim_policy_name(void* p) {
  (void)p;
  return "smallest-first";
}

EXPORT int migsim_policy_place(void* p, const migsim_view* view, const migsim_pod* pod,
                               migsim_placement* out) {
  (void)p, (void)pod;
  for (uint32_t n = 0; n < view->node_count; ++n) {
    if (view->fits(view->fits_context, n)) {
      out->node = n;
      out->device_count = 0;
      return 1;
    }
  }
  return 0;
}

/* The pod's GPU in sevenths, as the header comment says. */
static int64_t gpu_sevenths(const migsim_queued_pod* pod) {
  int64_t total = 0;
  for (uint32_t i = 0; i < pod->request_count; ++i) {
    const migsim_request* r = &pod->requests[i];
    if (r->resource >= pod->resource_count) continue;
    const char* name = pod->resource_names[r->resource];
    if (strcmp(name, "nvidia.com/gpu") == 0) {
      total += 7 * (int64_t)r->count;
    } else if (strncmp(name, "nvidia.com/mig-", 15) == 0) {
      total += strtol(name + 15, NULL, 10) * (int64_t)r->count;
    }
  }
  return total;
}

EXPORT int migsim_policy_queue_less(void* p, const migsim_queued_pod* a,
                                    const migsim_queued_pod* b) {
  (void)p;
  const int64_t ga = gpu_sevenths(a), gb = gpu_sevenths(b);
  if (ga != gb) return ga < gb;
  if (a->created_us != b->created_us) return a->created_us < b->created_us;
  return a->id < b->id;
}
