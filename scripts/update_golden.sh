#!/usr/bin/env bash
# Regenerates tests/golden/expected/ from the current model. Run after a deliberate
# change to the model's predictions, and review the diff before committing it.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
for scenario in 56-superres mig-strategies timeslice-cifar10 bert-a100 bert-inference timeslice-oom \
    fractional-gpu; do
  tmp=$(mktemp -d)
  ./build/migsim run "scenarios/$scenario.json" --out "$tmp" --quiet >/dev/null
  cp "$tmp/summary.json" "tests/golden/expected/$scenario.json"
  for csv in "$tmp"/pods-*.csv; do
    cp "$csv" "tests/golden/expected/$scenario.$(basename "$csv")"
  done
  rm -rf "$tmp"
done
git status --short tests/golden/expected
# The small openb fill experiment (both editions).
mkdir -p tests/golden/expected/openb-small
./build/migsim openb --data tests/golden/openb-small --trace small --policy all --seeds 1-2 \
  --mig --quiet --out tests/golden/expected/openb-small >/dev/null
git status --short tests/golden/expected/openb-small
# tests/golden/<name>/scenario.json's summary and pod CSVs.
golden_run() {
  local tmp
  tmp=$(mktemp -d)
  ./build/migsim run "tests/golden/$1/scenario.json" --quiet --out "$tmp" >/dev/null
  mkdir -p "tests/golden/expected/$1"
  cp "$tmp"/summary.json "$tmp"/pods-*.csv "tests/golden/expected/$1/"
  rm -rf "$tmp"
  git status --short "tests/golden/expected/$1"
}
golden_run openb-replay  # the small openb trace replayed in time (openb node pool)
golden_run pod-list      # a MIG pod list replayed in time (Trace with pods and templates)
# The explaining commands' text.
mkdir -p tests/golden/expected/cli
./build/migsim profiles A100-40GB > tests/golden/expected/cli/profiles-A100-40GB.txt
./build/migsim layouts A100-40GB > tests/golden/expected/cli/layouts-A100-40GB.txt
./build/migsim layouts A30 > tests/golden/expected/cli/layouts-A30.txt
./build/migsim profiles B200 > tests/golden/expected/cli/profiles-B200.txt
./build/migsim layouts B200 > tests/golden/expected/cli/layouts-B200.txt
./build/migsim gpus > tests/golden/expected/cli/gpus.txt
./build/migsim nodes > tests/golden/expected/cli/nodes.txt
# The same beside a scenario's own GPU model and node type.
./build/migsim gpus --scenario scenarios/custom-gpu.json > tests/golden/expected/cli/gpus-custom-gpu.txt
./build/migsim nodes --scenario scenarios/custom-gpu.json > tests/golden/expected/cli/nodes-custom-gpu.txt
./build/migsim profiles X4 --scenario scenarios/custom-gpu.json > tests/golden/expected/cli/profiles-X4.txt
./build/migsim layouts X4-32GB --all --scenario scenarios/custom-gpu.json > tests/golden/expected/cli/layouts-X4.txt
(cd scenarios && ../build/migsim validate mig-strategies.json) > tests/golden/expected/cli/validate-mig-strategies.txt
git status --short tests/golden/expected/cli
# migsim import's report of the example telemetry export and snapshot (tests/sim/cli/
# import_telemetry_cli_test.cc), with telemetry and Jobs, and from the snapshot alone.
tel=scenarios/telemetry
tmp=$(mktemp -d)
./build/migsim import --nodes $tel/nodes.json --pods $tel/pods.json --out "$tmp/s.json" \
  --jobs $tel/jobs.json --telemetry $tel/ > tests/golden/expected/cli/import-telemetry.txt 2>&1
./build/migsim import --nodes $tel/nodes.json --pods $tel/pods.json --out "$tmp/s.json" \
  > tests/golden/expected/cli/import-snapshot-times.txt 2>&1
rm -rf "$tmp"
git status --short tests/golden/expected/cli
