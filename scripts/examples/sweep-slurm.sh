#!/bin/bash
# `migsim sweep` as a Slurm job array: array task i runs shard i of 4 and writes
# $OUT/sweep-shard-<i>-of-4.csv on a shared file system; `migsim merge` then joins them
# into $OUT/sweep.csv, byte-identical to an unsharded run.
#
# Slurm sets SLURM_ARRAY_TASK_ID in each task; migsim takes its shard index from it and
# the number of shards from MIGSIM_SHARDS, which must equal the array's size. Indices
# must run from 0 (--array=0-3, not 1-4).
#
# From the repository's root, after building:
#   jid=$(sbatch --parsable scripts/examples/sweep-slurm.sh)
#   sbatch --dependency=afterok:$jid --wrap "./build/migsim merge results/$jid"
#
# sbatch passes your environment to the tasks, so MIGSIM (the binary), SWEEP (the sweep
# file) and OUT (the shards' directory: merge that one then) below can be set on its
# command line (`SWEEP=my-sweep.json sbatch ...`), and sbatch options there override the
# #SBATCH lines (`sbatch --cpus-per-task=16 ...` for a larger sweep: --jobs follows it).
# Each task logs to migsim-sweep-<job>_<task>.log in the directory sbatch was run from.
# scripts/test-slurm runs this recipe on a one-node Slurm in CI.
#
#SBATCH --job-name=migsim-sweep
#SBATCH --array=0-3
#SBATCH --cpus-per-task=2
#SBATCH --mem=2G
#SBATCH --time=00:30:00
#SBATCH --output=migsim-sweep-%A_%a.log
set -euo pipefail

export MIGSIM_SHARDS=4  # the array's size: --array=0-3 above

MIGSIM=${MIGSIM:-./build/migsim}
SWEEP=${SWEEP:-scenarios/sweeps/superres-nodes.json}
OUT=${OUT:-results/${SLURM_ARRAY_JOB_ID}}  # the same directory for every task of the array

"$MIGSIM" sweep "$SWEEP" --jobs "${SLURM_CPUS_PER_TASK:-1}" --out "$OUT" --quiet
