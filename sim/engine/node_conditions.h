#pragma once
// A node's conditions as the kubelet and the node lifecycle controller keep them: Ready or
// not, cordoned, removed, absent, each GPU healthy or not. Counters, since their causes
// overlap (a node made NotReady twice is Ready again only after both are lifted; a node
// cordoned by a drain and by a scale-down stays cordoned until both end). Changed through
// the ClusterApi verbs (cluster_api.h), the node groups' among them; the schedulable
// flag (NodeInfo::schedulable) follows them.

#include <vector>

namespace migsim {

struct NodeConditions {
  int not_ready = 0;  // NotReady while > 0
  int cordons = 0;    // cordons under way (drains, notices, scale-downs, replacements)
  bool removed = false;  // deleted for good
  bool absent = false;   // a node group's node not running (never launched or scaled down)
  std::vector<int> gpu_unhealthy;  // by GPU: unhealthy while > 0
};

}  // namespace migsim
