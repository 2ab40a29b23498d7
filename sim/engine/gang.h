#pragma once
// Gangs: all-or-nothing scheduling of a group of pods, as the Coscheduling plugin of
// kubernetes-sigs/scheduler-plugins does for a PodGroup (docs/scheduling.md §3).
//
// A controller declares a gang (ControllerContext::DeclareGang) and submits pods into it.
// The engine (engine_gang.cc) then follows the plugin:
//   QueueSort   a gang's pods are tried back to back: when one reaches the front of the
//               queue, every pending pod of the gang is tried in the same cycle.
//   PreFilter   a pod is rejected while its gang has fewer than minMember pods, or is
//               backing off.
//   Permit      a pod that found a node is *reserved*: it holds the node's resources but
//               is not bound. When minMember pods of the gang are reserved (or bound), all
//               are bound and start together.
//   PostFilter  when a pod finds no node and more than 10 % of minMember is missing, the
//               gang's reservations are released at once ("optimistic rejection"); with a
//               smaller gap they are held, waiting for room.
//   timeout     reservations held `schedule_timeout` after the first one are released, and
//               the gang backs off (kube-scheduler's per-pod back-off, 1 s doubling to
//               10 s).
// Deviations, so that every run ends: a gang whose attempt failed is tried again only
// after a cluster event (capacity freed: a pod left a node, reservations were released, a
// MIG change ended); a retry with nothing changed would fail the same way. And a gang whose
// reservations timed out holds none again until a pod leaves a node or a MIG change ends:
// two gangs that can never fit would otherwise take turns holding reservations forever.
// A gang with a topology key is placed whole in one domain or not at all (no held
// reservations): the domains are tried in the order of their label values.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/ids.h"
#include "sim/core/sim_time.h"
#include "sim/engine/pod.h"

namespace migsim {

// A PodGroup as a controller declares it.
struct GangSpec {
  uint32_t min_member = 1;  // REQUIRES: >= 1
  // How long reservations wait for the rest of the gang: the PodGroup's
  // scheduleTimeoutSeconds, which defaults to the plugin's permitWaitingTimeSeconds, 60 s.
  SimTime schedule_timeout = SimTime::Seconds(60);
  bool one_per_node = false;   // see GangConstraint
  std::string topology_key{};  // empty: none
};

// The engine's book of one gang.
struct Gang {
  GangSpec spec;
  OwnerId owner;
  std::vector<PodId> members{};   // in submission order; ended ones are dropped lazily
  uint32_t live = 0;              // members not ended
  uint32_t bound = 0;             // members bound to a node (starting or running)
  std::vector<PodId> reserved{};  // members reserved (waiting in Permit), in order
  SimTime first_reserved{};       // when the oldest reservation was made
  uint32_t round = 0;             // bumped when reservations end: stales their timeout
  uint32_t failures = 0;          // failed attempts since it was last bound: its back-off
  SimTime backoff_until{};
  // The cluster events seen (Engine::ClusterEvents) when its last attempt failed: it waits
  // for another. Cleared when it binds.
  std::optional<uint64_t> failed_at{};
  // The pod releases seen when its reservations last timed out: it holds none until
  // another (Engine::PodReleases).
  std::optional<uint64_t> timed_out_at{};
  // Its Permits, in time order: when, and how many of its pods were bound then.
  std::vector<std::pair<SimTime, uint32_t>> permits{};
  uint32_t timeouts = 0;  // times its reservations timed out
  // Set when a member is killed (evicted, or by a fault): the attempt is lost (its controller deletes the other
  // members), and so is their work since their last checkpoint before this time. Cleared
  // when the next attempt's pods join.
  std::optional<SimTime> attempt_lost_at{};
  EndReason attempt_lost_to = EndReason::kNone;  // the kill's reason (Engine::LoseAttempt)
};

}  // namespace migsim
