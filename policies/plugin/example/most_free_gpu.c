/* An example migsim policy plugin, in C: for a pod asking for one kind of GPU device, the
 * node with the most free devices of that kind (spread), or with "pack": true the fewest
 * (bin packing); it also chooses the devices itself: the free ones with the lowest index.
 * Pods asking for no device go to the first node that fits. Params: {"pack": false}. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "migsim_policy_plugin.h"

#define EXPORT __attribute__((visibility("default")))

typedef struct policy {
  int pack;
} policy;

/* A strict reader for the only params this policy takes: {} or {"pack": true|false}. */
static int parse_params(const char* json, int* pack, char* error, size_t error_size) {
  char buffer[256];
  size_t n = 0;
  for (const char* c = json; *c != '\0' && n + 1 < sizeof buffer; ++c) {
    if (*c != ' ' && *c != '\n' && *c != '\t' && *c != '\r') buffer[n++] = *c;
  }
  buffer[n] = '\0';
  if (strcmp(buffer, "{}") == 0) return 1;
  if (strcmp(buffer, "{\"pack\":true}") == 0) return *pack = 1, 1;
  if (strcmp(buffer, "{\"pack\":false}") == 0) return *pack = 0, 1;
  snprintf(error, error_size, "expected {} or {\"pack\": true|false}, got %s", json);
  return 0;
}

EXPORT uint32_t migsim_policy_abi_version(void) { return MIGSIM_POLICY_ABI_VERSION; }

EXPORT void* migsim_policy_create(const char* params_json, char* error, size_t error_size) {
  int pack = 0;
  if (!parse_params(params_json, &pack, error, error_size)) return NULL;
  policy* p = malloc(sizeof *p);
  if (p == NULL) return NULL;
  p->pack = pack;
  return p;
}

EXPORT void migsim_policy_destroy(void* p) { free(p); }

EXPORT const char* migsim_policy_name(void* p) {
  return ((policy*)p)->pack ? "example-pack" : "example-spread";
}

static uint32_t free_devices(const migsim_node* node, uint32_t resource) {
  uint32_t count = 0;
  for (uint32_t d = 0; d < node->device_count; ++d) {
    const migsim_device* dev = &node->devices[d];
    if (dev->resource == resource && dev->used < dev->capacity) ++count;
  }
  return count;
}

/* Takes `count` free devices serving `resource` on `node`, lowest index first. */
static void choose(const migsim_node* node, uint32_t resource, int32_t count,
                   migsim_placement* out) {
  for (uint32_t d = 0; d < node->device_count && count > 0; ++d) {
    const migsim_device* dev = &node->devices[d];
    if (dev->resource != resource || dev->used >= dev->capacity) continue;
    out->devices[out->device_count].device = d;
    out->devices[out->device_count].count = 1;
    ++out->device_count;
    --count;
  }
}

EXPORT int migsim_policy_place(void* p, const migsim_view* view, const migsim_pod* pod,
                               migsim_placement* out) {
  const int pack = ((policy*)p)->pack;
  const int gpu_pod = pod->request_count == 1;
  int64_t best = -1;
  uint32_t best_free = 0;
  for (uint32_t n = 0; n < view->node_count; ++n) {
    if (!view->fits(view->fits_context, n)) continue;
    if (!gpu_pod) {
      best = n;
      break;
    }
    const uint32_t free = free_devices(&view->nodes[n], pod->requests[0].resource);
    if (best < 0 || (pack ? free < best_free : free > best_free)) best = n, best_free = free;
  }
  if (best < 0) return 0;
  out->node = (uint32_t)best;
  out->device_count = 0;
  /* Exclusive devices only (a whole GPU or a MIG instance): shared or fractional ones are
   * left to the device plugin. */
  if (gpu_pod) {
    const migsim_node* node = &view->nodes[best];
    int exclusive = 1;
    for (uint32_t d = 0; d < node->device_count; ++d) {
      if (node->devices[d].resource == pod->requests[0].resource && node->devices[d].capacity > 1)
        exclusive = 0;
    }
    if (exclusive) choose(node, pod->requests[0].resource, pod->requests[0].count, out);
  }
  return 1;
}
