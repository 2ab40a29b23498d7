#include "sim/controllers/karpenter/node_claims.h"

#include <algorithm>
#include <memory>
#include <numeric>

#include "sim/engine/node_runtime.h"
#include "sim/policy/cluster_view.h"

namespace migsim {
namespace {

// An empty node of one offering with the claim's pods on it. Kept behind a pointer:
// NodeRuntime holds on to `info`.
struct Candidate {
  size_t offering = 0;
  NodeInfo info;
  std::unique_ptr<NodeRuntime> runtime;
};

struct Claim {
  std::vector<std::unique_ptr<Candidate>> candidates;  // by offering order
  uint32_t pods = 0;
  size_t full_for = SIZE_MAX;  // the last kind that fitted none of the candidates
  size_t holds_one_of = SIZE_MAX;  // a one-per-node gang kind it holds a pod of
};

class Packer {
 public:
  Packer(std::span<const Offering> offerings, ResourceTable& resources,
         std::span<const dra::DeviceClass> classes)
      : offerings_(offerings), resources_(&resources), classes_(classes) {}

  bool Fits(const Candidate& c, const PodView& pod) const {
    const ClusterView view({}, *resources_, SimTime::Zero());
    return view.Fits(pod, c.info);
  }

  void Put(Candidate& c, const PodView& pod) {
    c.runtime->Allocate(*pod.requests, held_, c.info);
    if (pod.has_claims()) c.runtime->AllocateClaims(*pod.claims, classes_, held_, c.info);
    held_.clear();
  }

  // Onto `claim` if some candidate holds the pod besides the claim's pods: the candidates
  // that cannot are dropped.
  bool AddTo(Claim& claim, const PodView& pod) {
    std::vector<uint8_t> fits(claim.candidates.size(), 0);
    bool any = false;
    for (size_t i = 0; i < claim.candidates.size(); ++i) {
      fits[i] = Fits(*claim.candidates[i], pod) ? 1 : 0;
      any = any || fits[i] != 0;
    }
    if (!any) return false;
    size_t kept = 0;
    for (size_t i = 0; i < claim.candidates.size(); ++i) {
      if (fits[i] == 0) continue;
      Put(*claim.candidates[i], pod);
      claim.candidates[kept++] = std::move(claim.candidates[i]);
    }
    claim.candidates.resize(kept);
    ++claim.pods;
    return true;
  }

  // A claim for `pod` alone over the offerings with room that hold it; empty when none.
  Claim Open(const PodView& pod) {
    Claim claim;
    for (size_t o = 0; o < offerings_.size(); ++o) {
      if (offerings_[o].room == 0) continue;
      auto c = std::make_unique<Candidate>();
      c->offering = o;
      c->runtime = std::make_unique<NodeRuntime>(*offerings_[o].spec, NodeId(0), *resources_,
                                                 c->info);
      if (!Fits(*c, pod)) continue;
      Put(*c, pod);
      claim.candidates.push_back(std::move(c));
    }
    if (!claim.candidates.empty()) claim.pods = 1;
    return claim;
  }

 private:
  std::span<const Offering> offerings_;
  ResourceTable* resources_;
  std::span<const dra::DeviceClass> classes_;
  std::vector<NodeRuntime::Held> held_;  // allocations (discarded)
};

// Karpenter's order: larger CPU request first, then larger memory; stable otherwise.
std::vector<size_t> PackingOrder(std::span<const PendingPods> pending) {
  std::vector<size_t> order(pending.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const PodRequests& x = *pending[a].view.requests;
    const PodRequests& y = *pending[b].view.requests;
    if (x.cpu_milli != y.cpu_milli) return x.cpu_milli > y.cpu_milli;
    return x.memory_mib > y.memory_mib;
  });
  return order;
}

// Each claim as its cheapest offering that still has room.
std::vector<NodeClaimPlan> Launches(std::span<const Offering> offerings,
                                    const std::vector<Claim>& claims) {
  std::vector<uint32_t> room(offerings.size());
  for (size_t o = 0; o < offerings.size(); ++o) room[o] = offerings[o].room;
  std::vector<NodeClaimPlan> plans;
  for (const Claim& claim : claims) {
    const Candidate* best = nullptr;
    for (const std::unique_ptr<Candidate>& c : claim.candidates) {
      if (room[c->offering] == 0) continue;
      if (best == nullptr ||
          offerings[c->offering].price_per_hour < offerings[best->offering].price_per_hour) {
        best = c.get();
      }
    }
    if (best == nullptr) continue;
    --room[best->offering];
    plans.push_back({.group = offerings[best->offering].group,
                     .pods = claim.pods,
                     .price_per_hour = offerings[best->offering].price_per_hour});
  }
  return plans;
}

}  // namespace

std::vector<NodeClaimPlan> PlanNodeClaims(std::span<const Offering> offerings,
                                          std::span<const PendingPods> pending,
                                          uint32_t max_claims, ResourceTable& resources,
                                          std::span<const dra::DeviceClass> classes) {
  Packer packer(offerings, resources, classes);
  std::vector<Claim> claims;
  for (size_t kind : PackingOrder(pending)) {
    // A gang's pods go only where its topology lets them; one per node, each claim holds
    // at most one of them (the candidates' ids are all 0: `taken` stays empty).
    const std::optional<GangConstraint>& gang = pending[kind].gang;
    const bool one_per_claim = gang && gang->one_per_node;
    PodView pod = pending[kind].view;
    if (gang) pod.gang = &*gang;
    for (uint32_t n = 0; n < pending[kind].count; ++n) {
      bool placed = false;
      for (Claim& claim : claims) {
        if (claim.full_for == kind || (one_per_claim && claim.holds_one_of == kind)) continue;
        if (packer.AddTo(claim, pod)) {
          placed = true;
          if (one_per_claim) claim.holds_one_of = kind;
          break;
        }
        claim.full_for = kind;  // claims only fill up: later pods of the kind fit no better
      }
      if (placed) continue;
      if (claims.size() == max_claims) break;
      Claim fresh = packer.Open(pod);
      if (fresh.candidates.empty()) break;  // no offering holds this kind at all
      if (one_per_claim) fresh.holds_one_of = kind;
      claims.push_back(std::move(fresh));
    }
  }
  return Launches(offerings, claims);
}

}  // namespace migsim
