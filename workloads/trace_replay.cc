#include "workloads/trace_replay.h"

namespace migsim {

void TraceReplay::Start(ControllerContext& ctx, OwnerId self) {
  self_ = self;
  if (!spec_.entries.empty()) ctx.SetTimer(spec_.entries[0].at, self_, 0);
}

// `tag` is the first entry due now; submits it and every later entry with the same time,
// then waits for the next time.
void TraceReplay::OnTimer(ControllerContext& ctx, uint64_t tag) {
  size_t i = static_cast<size_t>(tag);
  const SimTime now = spec_.entries[i].at;
  for (; i < spec_.entries.size() && spec_.entries[i].at == now; ++i) {
    const TraceEntry& e = spec_.entries[i];
    const auto index = static_cast<uint32_t>(i);
    if (e.run) {
      ctx.SubmitRecorded(e.tmpl, self_, index, *e.run);
    } else {
      ctx.Submit(e.tmpl, self_, index);
    }
  }
  if (i < spec_.entries.size()) ctx.SetTimer(spec_.entries[i].at, self_, i);
}

}  // namespace migsim
