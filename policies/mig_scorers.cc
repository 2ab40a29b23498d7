#include "policies/mig_scorers.h"

#include <cmath>

namespace migsim {
namespace {

class MigFirstFit final : public MigScorer {
 public:
  std::string_view name() const override { return "mig-first-fit"; }
  int64_t Score(const MigGpu&, const MigGpu&) override { return 0; }
};

class MigBestFit final : public MigScorer {
 public:
  explicit MigBestFit(const MigPolicyContext& c) : c_(c) {}
  std::string_view name() const override { return "mig-best-fit"; }
  int64_t Score(const MigGpu& before, const MigGpu& after) override {
    // Kept futures in per mille first, used slices second (at most 7, so it never
    // outweighs a per-mille step).
    const int64_t was = std::max(1, CompatibleLayouts(before, c_.layouts));
    const int64_t kept = 1000 * CompatibleLayouts(after, c_.layouts) / was;
    return kept * 100 + MigComputeUsed(*c_.model, after);
  }

 private:
  const MigPolicyContext& c_;
};

class MigFgd final : public MigScorer {
 public:
  explicit MigFgd(const MigPolicyContext& c) : c_(c) {}
  std::string_view name() const override { return "mig-fgd"; }
  int64_t Score(const MigGpu& before, const MigGpu& after) override {
    const double delta = MigFragmentation(*c_.model, before, c_.dynamic, c_.typical) -
                         MigFragmentation(*c_.model, after, c_.dynamic, c_.typical);
    // In thousandths of a slice, then packing as the tie-break, as for mig-best-fit.
    return std::llround(delta * 1000) * 100 + MigComputeUsed(*c_.model, after);
  }

 private:
  const MigPolicyContext& c_;
};

}  // namespace

std::unique_ptr<MigScorer> MakeMigScorer(std::string_view name,
                                                   const MigPolicyContext& context) {
  if (name == "mig-first-fit") return std::make_unique<MigFirstFit>();
  if (name == "mig-best-fit") return std::make_unique<MigBestFit>(context);
  if (name == "mig-fgd") return std::make_unique<MigFgd>(context);
  return nullptr;
}

std::vector<std::string> MigScorerNames() {
  return {"mig-first-fit", "mig-best-fit", "mig-fgd"};
}

}  // namespace migsim
