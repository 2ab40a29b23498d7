#include "sim/controllers/kueue/kueue_admission.h"

#include <algorithm>

#include "sim/core/check.h"

namespace migsim {

bool KueueAdmission::QueueOrder::operator()(WorkloadId a, WorkloadId b) const {
  const WorkloadRecord& x = (*workloads)[a.value()];
  const WorkloadRecord& y = (*workloads)[b.value()];
  if (x.request.priority != y.request.priority) return x.request.priority > y.request.priority;
  if (x.created != y.created) return x.created < y.created;
  return a < b;
}

KueueAdmission::KueueAdmission(const KueueSpec& spec) : spec_(&spec), quota_(spec) {
  const size_t queues = spec.cluster_queues.size();
  for (size_t c = 0; c < queues; ++c) pending_.emplace_back(QueueOrder{&workloads_});
  admitted_.resize(queues);
  strict_blocked_.resize(queues);
  borrowed_gpus_.assign(queues, {{SimTime::Zero(), 0}});
  const auto gpu = std::find(spec.resources.begin(), spec.resources.end(), "nvidia.com/gpu");
  if (gpu != spec.resources.end())
    gpu_resource_ = static_cast<int32_t>(gpu - spec.resources.begin());
}

WorkloadId KueueAdmission::Add(WorkloadRequest request, SimTime now) {
  MIGSIM_CHECK(request.request.size() == spec_->resources.size() && request.cluster_queue >= 0 &&
                   static_cast<size_t>(request.cluster_queue) < pending_.size(),
               "a workload request that does not match the Kueue configuration");
  const WorkloadId id(static_cast<WorkloadId::Rep>(workloads_.size()));
  const int32_t cq = request.cluster_queue;
  workloads_.push_back(WorkloadRecord{.request = std::move(request), .created = now});
  pending_[cq].insert(id);
  dirty_ = true;
  return id;
}

void KueueAdmission::Finish(WorkloadId id, SimTime now) {
  WorkloadRecord& w = workloads_[id.value()];
  const int32_t cq = w.request.cluster_queue;
  if (w.state == WorkloadRecord::State::kPending) pending_[cq].erase(id);
  if (w.state == WorkloadRecord::State::kAdmitted) {
    Take(id, w.flavors, -1);
    std::erase(admitted_[cq], id);
    QuotaReleased(cq);
  }
  w.state = WorkloadRecord::State::kFinished;
  dirty_ = true;
  RecordBorrowed(now);
}

// Kueue requeues the inadmissible workloads of a cohort when quota is released in it.
void KueueAdmission::QuotaReleased(int32_t cq) {
  auto reset = [this](int32_t q) {
    strict_blocked_[q].reset();
    for (WorkloadId id : pending_[q]) workloads_[id.value()].inadmissible = false;
  };
  const int32_t cohort = quota_.cohort(cq);
  if (cohort < 0) {
    reset(cq);
  } else {
    for (int32_t m : quota_.members(cohort)) reset(m);
  }
}

std::optional<WorkloadId> KueueAdmission::HeadOf(int32_t cq) const {
  const bool strict = spec_->cluster_queues[cq].strategy == QueueingStrategy::kStrictFifo;
  for (WorkloadId id : pending_[cq]) {
    if (strict) {
      if (strict_blocked_[cq] == id) return std::nullopt;
      return id;
    }
    if (!workloads_[id.value()].inadmissible) return id;
  }
  return std::nullopt;
}

std::vector<std::pair<size_t, int64_t>> KueueAdmission::Usage(
    const WorkloadRecord& w, const std::vector<int32_t>& flavors) const {
  std::vector<std::pair<size_t, int64_t>> usage;
  const ClusterQueueSpec& cq = spec_->cluster_queues[w.request.cluster_queue];
  for (size_t g = 0; g < cq.groups.size() && g < flavors.size(); ++g) {
    if (flavors[g] < 0) continue;
    for (int32_t r : cq.groups[g].covered) {
      const int64_t amount = w.request.request[r];
      if (amount > 0) usage.emplace_back(quota_.Index(flavors[g], r), amount);
    }
  }
  return usage;
}

// Per group, the first flavor that fits now, else the first that ever could (for
// preemption); -1 for a group the workload asks nothing of.
KueueAdmission::Head KueueAdmission::Assign(WorkloadId id, int32_t cq) const {
  const WorkloadRecord& w = workloads_[id.value()];
  Head head{.workload = id, .cq = cq};
  head.fits = true;
  for (const ResourceGroup& group : spec_->cluster_queues[cq].groups) {
    auto holds = [&](const FlavorQuotas& f, bool now) {
      for (int32_t r : group.covered) {
        const int64_t amount = w.request.request[r];
        const size_t fr = quota_.Index(f.flavor, r);
        if (amount > (now ? quota_.Available(cq, fr) : quota_.Capacity(cq, fr))) return false;
      }
      return true;
    };
    const bool asks = std::any_of(group.covered.begin(), group.covered.end(),
                                  [&](int32_t r) { return w.request.request[r] > 0; });
    int32_t chosen = -1;
    if (asks) {
      auto it = std::find_if(group.flavors.begin(), group.flavors.end(),
                             [&](const FlavorQuotas& f) { return holds(f, true); });
      if (it == group.flavors.end()) {
        head.fits = false;
        it = std::find_if(group.flavors.begin(), group.flavors.end(),
                          [&](const FlavorQuotas& f) { return holds(f, false); });
      }
      chosen = it == group.flavors.end() ? group.flavors.front().flavor : it->flavor;
    }
    head.flavors.push_back(chosen);
  }
  std::vector<int64_t> extra(quota_.size(), 0);
  for (const auto& [fr, amount] : Usage(w, head.flavors)) {
    head.borrows = head.borrows || quota_.Usage(cq, fr) + amount > quota_.Nominal(cq, fr);
    extra[fr] += amount;
  }
  if (spec_->fair_sharing) head.share = quota_.Share(cq, extra);
  return head;
}

// Kueue's entry ordering: fair sharing by share once admitted, otherwise non-borrowing
// first; then priority, then creation.
bool KueueAdmission::Before(const Head& a, const Head& b) const {
  if (spec_->fair_sharing) {
    if (a.share != b.share) return a.share < b.share;
  } else if (a.borrows != b.borrows) {
    return !a.borrows;
  }
  return QueueOrder{&workloads_}(a.workload, b.workload);
}

bool KueueAdmission::Fits(const Head& head, bool allow_borrowing) const {
  for (const auto& [fr, amount] : Usage(workloads_[head.workload.value()], head.flavors)) {
    if (amount > quota_.Available(head.cq, fr)) return false;
    if (!allow_borrowing && quota_.Usage(head.cq, fr) + amount > quota_.Nominal(head.cq, fr)) {
      return false;
    }
  }
  return true;
}

void KueueAdmission::Take(WorkloadId id, const std::vector<int32_t>& flavors, int64_t sign) {
  const WorkloadRecord& w = workloads_[id.value()];
  for (const auto& [fr, amount] : Usage(w, flavors)) {
    quota_.Use(w.request.cluster_queue, fr, sign * amount);
  }
}

void KueueAdmission::AdmitHead(const Head& head, SimTime now, std::vector<KueueDecision>& out) {
  WorkloadRecord& w = workloads_[head.workload.value()];
  pending_[head.cq].erase(head.workload);
  w.state = WorkloadRecord::State::kAdmitted;
  w.flavors = head.flavors;
  w.admitted_at = now;
  if (!w.first_admitted) w.first_admitted = now;
  Take(head.workload, w.flavors, 1);
  admitted_[head.cq].push_back(head.workload);
  out.push_back({head.workload, true, w.flavors});
}

void KueueAdmission::Evict(WorkloadId id, std::vector<KueueDecision>& out) {
  WorkloadRecord& w = workloads_[id.value()];
  const int32_t cq = w.request.cluster_queue;
  Take(id, w.flavors, -1);
  std::erase(admitted_[cq], id);
  w.state = WorkloadRecord::State::kPending;
  w.flavors.clear();
  w.inadmissible = false;
  ++w.evictions;
  pending_[cq].insert(id);
  out.push_back({id, false, {}});
}

void KueueAdmission::SetAside(const Head& head) {
  if (spec_->cluster_queues[head.cq].strategy == QueueingStrategy::kStrictFifo) {
    strict_blocked_[head.cq] = head.workload;
  } else {
    workloads_[head.workload.value()].inadmissible = true;
  }
}

std::vector<KueueDecision> KueueAdmission::Admit(SimTime now) {
  dirty_ = false;
  std::vector<KueueDecision> out;
  for (;;) {
    std::vector<Head> heads;
    for (size_t cq = 0; cq < pending_.size(); ++cq) {
      const int32_t q = static_cast<int32_t>(cq);
      if (std::optional<WorkloadId> id = HeadOf(q)) heads.push_back(Assign(*id, q));
    }
    if (heads.empty()) break;
    std::sort(heads.begin(), heads.end(),
              [this](const Head& a, const Head& b) { return Before(a, b); });
    auto fitting = std::find_if(heads.begin(), heads.end(), [](const Head& h) { return h.fits; });
    if (fitting != heads.end()) {
      AdmitHead(*fitting, now, out);
      continue;
    }
    bool admitted = false;
    for (const Head& head : heads) {
      std::vector<WorkloadId> victims = Victims(head);
      if (victims.empty()) continue;
      for (WorkloadId v : victims) Evict(v, out);
      AdmitHead(head, now, out);
      admitted = true;
      break;
    }
    if (!admitted) {
      for (const Head& head : heads) SetAside(head);
    }
    // Every eviction is of a lower-ranked workload (preemption.cc): a bound against a bug.
    MIGSIM_CHECK(out.size() <= 16 * workloads_.size() + 16, "Kueue admission does not settle");
  }
  RecordBorrowed(now);
  return out;
}

void KueueAdmission::RecordBorrowed(SimTime now) {
  for (size_t cq = 0; cq < borrowed_gpus_.size(); ++cq) {
    int64_t borrowed = 0;
    if (gpu_resource_ >= 0) {
      for (size_t f = 0; f < spec_->flavors.size(); ++f) {
        borrowed += quota_.Borrowed(static_cast<int32_t>(cq),
                                    quota_.Index(static_cast<int32_t>(f), gpu_resource_));
      }
    }
    auto& series = borrowed_gpus_[cq];
    if (series.back().second == borrowed) continue;
    if (series.back().first == now) {
      series.back().second = borrowed;
    } else {
      series.emplace_back(now, borrowed);
    }
  }
}

}  // namespace migsim
