/* ABI version 1's header as migsim shipped it (commit 8cc76bb), kept unchanged so that a test
 * builds a version-1 plugin as a user built it then (tests/policies/plugin/CMakeLists.txt). */
/* migsim's scheduling-policy plugin ABI, version 1: a policy in a shared library, loaded
 * by a scenario's "policy": {"library": "path/to/libpolicy.so", "params": {...}}.
 *
 * Plain C (C99 and C++), no migsim headers: a plugin builds against this file alone.
 *
 * The library exports the five functions declared at the end. migsim calls them from one
 * thread. For each pending pod it offers, it fills a migsim_view (the cluster as the
 * scheduler sees it) and a migsim_pod, and calls migsim_policy_place. Every pointer it
 * passes is valid only during that call: copy what you keep. The answer is checked by the
 * engine like any policy's — the node exists and the pod fits there, each chosen device
 * exists, has room and serves one of the pod's requests — and a bad answer leaves the pod
 * pending and is counted (rejected decisions), never applied.
 *
 * Versioning: MIGSIM_POLICY_ABI_VERSION changes when a struct or a signature changes
 * incompatibly; migsim refuses a library built for another version. Fields may be added at
 * the end of migsim_view in a compatible version; struct_size tells how large the one
 * passed is. Units: time in microseconds of simulated time, CPU in millicores, memory in
 * MiB; counts of extended resources as Kubernetes counts them. */
#ifndef MIGSIM_POLICY_PLUGIN_H_
#define MIGSIM_POLICY_PLUGIN_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MIGSIM_POLICY_ABI_VERSION 1u

typedef struct migsim_label {
  const char* key;
  const char* value;
} migsim_label;

/* One device the node's device plugin hands out. */
typedef struct migsim_device {
  int32_t gpu;                  /* physical GPU index on the node */
  int32_t mig_profile;          /* MIG profile index of the GPU model; -1: a whole GPU */
  const char* mig_profile_name; /* "1g.5gb", or NULL for a whole GPU */
  int32_t mig_start;            /* first memory slice of the GPU instance; 0 for a GPU */
  uint32_t resource;            /* index into migsim_view.resource_names */
  int32_t capacity;             /* replicas (time-slicing, MPS), units (fractional), or 1 */
  int32_t used;                 /* replicas or units taken by bound pods */
  uint8_t shared;               /* time-sliced or MPS */
  uint8_t fractional;           /* a pod takes some of its units (milli-GPU) */
} migsim_device;

typedef struct migsim_node {
  uint32_t id; /* what migsim_placement.node names */
  const char* name;
  uint8_t schedulable; /* 0 while cordoned */
  uint8_t mig_pending; /* the MIG manager is reconfiguring it: its devices are withdrawn */
  int64_t cpu_milli_allocatable, cpu_milli_requested;
  int64_t memory_mib_allocatable, memory_mib_requested;
  const int32_t* allocatable; /* by resource index: resource_count entries */
  const int32_t* requested;   /* by resource index: resource_count entries */
  const migsim_label* labels; /* sorted by key */
  uint32_t label_count;
  const char* gpu_model; /* e.g. "A100-SXM4-40GB", or NULL on a node without GPUs */
  const migsim_device* devices;
  uint32_t device_count;
  uint32_t pod_count; /* pods bound to the node */
} migsim_node;

typedef struct migsim_request {
  uint32_t resource; /* index into migsim_view.resource_names */
  int32_t count;
} migsim_request;

typedef struct migsim_pod {
  uint32_t id;
  int64_t created_us;
  int64_t cpu_milli;
  int64_t memory_mib;
  const migsim_request* requests; /* its extended resources */
  uint32_t request_count;
  uint32_t pending_alike; /* pods alike pending behind it, itself included */
} migsim_pod;

typedef struct migsim_view {
  uint32_t struct_size; /* sizeof(migsim_view) as migsim built it */
  int64_t now_us;
  const migsim_node* nodes; /* node i has id i */
  uint32_t node_count;
  const char* const* resource_names; /* "nvidia.com/gpu", "nvidia.com/mig-1g.5gb", ... */
  uint32_t resource_count;
  /* 1 when the pod being placed passes the scheduler's fit on `node` (cordon, CPU,
   * memory, every extended resource, node selector, node affinity), else 0. */
  int (*fits)(const void* context, uint32_t node);
  const void* fits_context; /* pass it to fits */
} migsim_view;

#define MIGSIM_MAX_DEVICE_CHOICES 64

typedef struct migsim_device_choice {
  uint32_t device; /* index into the chosen node's devices */
  int32_t count;   /* replicas or units taken from it; 1 for an exclusive device */
} migsim_device_choice;

typedef struct migsim_placement {
  uint32_t node;         /* a node id */
  uint32_t device_count; /* 0: the device plugin picks the devices */
  migsim_device_choice devices[MIGSIM_MAX_DEVICE_CHOICES];
} migsim_placement;

/* Returns MIGSIM_POLICY_ABI_VERSION as the library was built with it. */
uint32_t migsim_policy_abi_version(void);
/* A new policy instance for one run, from the scenario's "params" object as JSON text
 * ("{}" when absent). On bad params: NULL, with a NUL-terminated message of at most
 * error_size bytes in `error` (it names the param). migsim makes one instance per run. */
void* migsim_policy_create(const char* params_json, char* error, size_t error_size);
void migsim_policy_destroy(void* policy);
/* The name results show for the policy; valid until destroy. */
const char* migsim_policy_name(void* policy);
/* 1: bind `pod` as `out` says; 0: leave it pending until something changes. */
int migsim_policy_place(void* policy, const migsim_view* view, const migsim_pod* pod,
                        migsim_placement* out);

#ifdef __cplusplus
}
#endif

#endif /* MIGSIM_POLICY_PLUGIN_H_ */
