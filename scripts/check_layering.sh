#!/usr/bin/env bash
# Checks that dependencies point one way (README "How the code is laid out"): each folder includes
# only the project headers it may, and third-party headers stay at the edges.
# Prints every violation and exits 1 if there is any.
set -uo pipefail
cd "$(dirname "$0")/.."

status=0
# check <folder> <regex of allowed project include prefixes>
check() {
  local folder=$1 allowed=$2
  local bad
  bad=$(grep -rnE '^#include "' "$folder" --include='*.h' --include='*.cc' |
        grep -vE "#include \"($allowed)" || true)
  if [ -n "$bad" ]; then
    echo "layering: $folder may include only ($allowed):"
    echo "$bad"
    status=1
  fi
}
# forbid <regex of an include> <folders where it is allowed...>
forbid() {
  local pattern=$1; shift
  local bad
  bad=$(grep -rnE "^#include <($pattern)" sim policies workloads --include='*.h' --include='*.cc' |
        grep -vE "^($(IFS='|'; echo "$*"))" || true)
  if [ -n "$bad" ]; then
    echo "layering: <$pattern...> belongs only in $*:"
    echo "$bad"
    status=1
  fi
}

check sim/core 'sim/core/'
check sim/cluster 'sim/core/|sim/cluster/'
check sim/perf 'sim/core/|sim/perf/'
check sim/dra 'sim/core/|sim/cluster/|sim/dra/'
check sim/policy 'sim/core/|sim/cluster/|sim/dra/|sim/policy/'
check sim/engine 'sim/core/|sim/cluster/|sim/dra/|sim/perf/|sim/policy/|sim/engine/'
check sim/controllers 'sim/core/|sim/cluster/|sim/dra/|sim/perf/|sim/policy/|sim/engine/|sim/controllers/'
check sim/metrics 'sim/core/|sim/cluster/|sim/dra/|sim/engine/|sim/controllers/|sim/metrics/|sim/policy/'
check policies 'sim/core/|sim/cluster/|sim/dra/|sim/policy/|policies/'
check workloads 'sim/core/|sim/cluster/|sim/dra/|sim/engine/|sim/controllers/|sim/metrics/|sim/perf/|sim/policy/|workloads/'
check sim/io 'sim/core/|sim/cluster/|sim/dra/|sim/engine/|sim/controllers/|sim/metrics/|sim/perf/|sim/policy/|sim/io/|workloads/|policies/'
check sim/study 'sim/core/|sim/cluster/|sim/dra/|sim/engine/|sim/controllers/|sim/metrics/|sim/perf/|sim/policy/|sim/io/|sim/study/|workloads/|policies/'
# The sweep shard CSVs that sim/report merges are inputs: read through the one reader of sim/io.
check sim/report 'sim/io/input_file\.h|sim/core/|sim/cluster/|sim/dra/|sim/engine/|sim/controllers/|sim/metrics/|sim/perf/|sim/policy/|sim/study/|sim/report/|workloads/|policies/'
check sim/python 'sim/core/|sim/cluster/|sim/dra/|sim/engine/|sim/controllers/|sim/metrics/|sim/perf/|sim/policy/|sim/io/|sim/study/|sim/report/|sim/python/|workloads/|policies/'
check fuzz 'sim/core/|sim/cluster/|sim/dra/|sim/io/|fuzz/'
forbid 'nlohmann/' sim/io/ sim/report/
forbid 'pybind11/' sim/python/
forbid 'yaml-cpp/' sim/io/
forbid 'CLI/' sim/cli/
forbid 'boost/' workloads/workflow_graph.cc
forbid 'Eigen/' sim/perf/

[ $status -eq 0 ] && echo "layering: ok"
exit $status
