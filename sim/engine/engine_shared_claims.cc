// Shared ResourceClaims (sim/dra/shared_claim.h): allocated by the first pod using one,
// on the node it is bound to; reserved for every pod using it while that pod holds its
// node; released, its DynamicMIG instances destroyed, when the last of them is gone. The
// pods using a claim are processes on its devices (NodeRuntime::ShareClaimDevices), so
// they share them as device-plugin time-slicing or MPS pods do (engine_time_share.cc).

#include <algorithm>

#include "sim/core/check.h"
#include "sim/engine/engine.h"

namespace migsim {

void Engine::AllocateWithSharedClaims(Pod& pod, NodeRuntime& runtime, NodeInfo& info) {
  const PodTemplate& t = templates_[pod.tmpl.value()];
  std::vector<dra::SharedClaimId> fresh;  // allocated by this pod, in the order it names them
  for (dra::SharedClaimId id : t.shared_claims) {
    if (!shared_claims_.state(id).node.valid()) fresh.push_back(id);
  }
  const std::vector<dra::ResourceClaim> claims =
      ClaimsToAllocate(t.resource_claims, t.shared_claims, shared_claims_.states());
  if (!claims.empty()) {
    std::vector<NodeRuntime::Held> taken;
    const NodeRuntime::ClaimResult result =
        runtime.AllocateClaims(claims, device_classes_, taken, info);
    allocated_weight_ += result.weight;
    CountCreated(runtime, result.created);
    const size_t own = t.resource_claims.size();
    for (size_t i = 0; i < taken.size(); ++i) {
      const uint32_t created =
          runtime.dra()->slice().devices[taken[i].device].created_on_allocation;
      if (result.claims[i] < own) {
        device_records_.held.push_back(taken[i]);
        pod.mig_created += created;
        continue;
      }
      SharedClaimBooks::Book& book = shared_claims_.book(fresh[result.claims[i] - own]);
      book.devices.push_back(taken[i]);
      book.mig_created += created;
    }
  }
  ReserveSharedClaims(pod, fresh, runtime, info);
}

// The kubelet creates the pod's own instances, then the fresh claims' ones, in sequence:
// those exist once all are created.
void Engine::ReserveSharedClaims(Pod& pod, std::span<const dra::SharedClaimId> fresh,
                                 NodeRuntime& runtime, NodeInfo& info) {
  uint32_t created = pod.mig_created;
  for (dra::SharedClaimId id : fresh) created += shared_claims_.book(id).mig_created;
  const SimTime create = runtime.spec().dra ? runtime.spec().dra->mig_create : SimTime::Zero();
  for (dra::SharedClaimId id : fresh) {
    shared_claims_.state(id).node = pod.node;
    SharedClaimBooks::Book& book = shared_claims_.book(id);
    book.ready = now_ + SimTime::Micros(create.micros() * created);
    book.allocated_at = now_;
    book.gpus = runtime.GpusHeld(book.devices);
    book.namespace_index = templates_[pod.tmpl.value()].namespace_index;
    runtime.ShareClaimDevices(book.devices, shared_claims_.claim(id).sharing, info);
  }
  for (dra::SharedClaimId id : templates_[pod.tmpl.value()].shared_claims) {
    SharedClaimBooks::Book& book = shared_claims_.book(id);
    ++book.reserved_for;
    pod.claim_ready = std::max(pod.claim_ready, book.ready);
    for (const NodeRuntime::Held& held : book.devices) device_records_.held.push_back({held.device, 0});
  }
}

void Engine::ReleaseSharedClaims(const Pod& pod) {
  for (dra::SharedClaimId id : templates_[pod.tmpl.value()].shared_claims) {
    SharedClaimBooks::Book& book = shared_claims_.book(id);
    MIGSIM_CHECK(book.reserved_for > 0, "a shared claim released by a pod not using it");
    if (--book.reserved_for > 0) continue;
    const NodeId node = shared_claims_.state(id).node;
    book.gpu_seconds += book.gpus * (now_ - book.allocated_at).seconds();
    allocated_weight_ +=
        runtimes_[node.value()].ReleaseSharedClaim(book.devices, node_info_[node.value()]);
    NodeChanged(node.value());
    counters_.mig_instances_destroyed += std::exchange(book.mig_created, 0);
    book.devices.clear();
    shared_claims_.state(id).node = NodeId::Invalid();
  }
}

}  // namespace migsim
