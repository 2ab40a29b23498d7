#pragma once
// Strong ids: dense indices into the flat vectors that own pods, nodes and the rest.
// A NodeId cannot be passed where a PodId is expected, and an id is never a string.

#include <compare>
#include <cstdint>
#include <functional>
#include <limits>

namespace migsim {

template <typename Tag>
class Id {
 public:
  using Rep = uint32_t;
  static constexpr Rep kInvalid = std::numeric_limits<Rep>::max();

  constexpr Id() = default;
  constexpr explicit Id(Rep value) : value_(value) {}
  static constexpr Id Invalid() { return Id(); }

  constexpr Rep value() const { return value_; }
  constexpr bool valid() const { return value_ != kInvalid; }
  constexpr auto operator<=>(const Id&) const = default;

 private:
  Rep value_ = kInvalid;
};

using PodId = Id<struct PodTag>;
using NodeId = Id<struct NodeTag>;
using OwnerId = Id<struct OwnerTag>;          // a controller instance (Deployment, Job, ...)
using ResourceId = Id<struct ResourceTag>;    // an interned extended-resource name
using JobClassId = Id<struct JobClassTag>;
using SchedulingClassId = Id<struct SchedulingClassTag>;
using GangId = Id<struct GangTag>;  // a coscheduling PodGroup (sim/engine/gang.h)

}  // namespace migsim

template <typename Tag>
struct std::hash<migsim::Id<Tag>> {
  size_t operator()(migsim::Id<Tag> id) const noexcept { return std::hash<uint32_t>()(id.value()); }
};
