#include "workloads/controller_factory.h"

#include "workloads/deployment.h"
#include "workloads/distributed_job.h"
#include "workloads/job.h"
#include "workloads/pod_group.h"
#include "workloads/trace_replay.h"
#include "workloads/workflow.h"

namespace migsim {
namespace {

struct Maker {
  std::unique_ptr<Controller> operator()(const PodGroupSpec& s) const {
    return std::make_unique<PodGroup>(s);
  }
  std::unique_ptr<Controller> operator()(const DeploymentSpec& s) const {
    return std::make_unique<Deployment>(s);
  }
  std::unique_ptr<Controller> operator()(const JobSpec& s) const {
    return std::make_unique<Job>(s);
  }
  std::unique_ptr<Controller> operator()(const WorkflowSpec& s) const {
    return std::make_unique<Workflow>(s);
  }
  std::unique_ptr<Controller> operator()(const TraceSpec& s) const {
    return std::make_unique<TraceReplay>(s);
  }
  std::unique_ptr<Controller> operator()(const DistributedJobSpec& s) const {
    return std::make_unique<DistributedJob>(s);
  }
};

}  // namespace

std::unique_ptr<Controller> MakeController(const WorkloadSpec& spec) {
  return std::visit(Maker{}, spec);
}

}  // namespace migsim
