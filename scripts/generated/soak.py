#!/usr/bin/env python3
"""The generated-scenario soak (README "Sanitizers and fuzzing", issue 25).

Builds random valid scenarios that mix the features a run can combine -- fixed and
autoscaled pools under Karpenter or the Cluster Autoscaler, MIG, time-slicing, MPS and DRA,
failure processes (spot interruptions, lost nodes, unhealthy GPUs) and scripted faults,
priority classes and preemption, PodDisruptionBudgets, gangs, Kueue queues, Jobs,
Deployments (with an HPA), bare pods, Arrivals and Workflows -- and runs each with
`migsim run --json`. A scenario passes when migsim exits 0 (the engine's end-of-run checks,
engine_accounting.cc, found every pod accounted for: an internal error exits 1) and its
reported pod counts add up: submitted = completed + failed + running + pending + deleted.
Scenario s of a soak is drawn from the seed s alone, so `--seeds 300` checks scenarios
1..300 and `--first 4000 --seeds 1` re-runs scenario 4000. A failing scenario is written to
--keep (default: a temporary directory) with migsim's message, to rerun with `migsim run`.

Standard library only. Exit 0: all passed; 1: a scenario failed; 2: usage.
"""

import argparse
import concurrent.futures
import json
import os
import random
import subprocess
import sys
import tempfile

GPU_TYPES = ["p3.2xlarge", "p3.8xlarge", "g5.xlarge", "g5.12xlarge", "p4d.24xlarge"]
SHARING = ["whole", "mig", "time-slicing", "mps", "dra"]


def pool(rng, kind, autoscaled):
    """A pool of p4d.24xlarge (for MIG, DRA) or of any GPU type, and the resource its
    pods ask for: (pool, resource name or None for a DRA claim)."""
    node_type = "p4d.24xlarge" if kind in ("mig", "dra") else rng.choice(GPU_TYPES)
    p = {"type": node_type}
    if autoscaled:
        scaling = {"max": rng.randint(1, 6), "provisioning_s": rng.choice([30, 60, 120, 300])}
        if rng.random() < 0.3:
            scaling["min"] = 1
        if rng.random() < 0.5:
            scaling["capacity_type"] = "spot"
            scaling["price_per_hour"] = rng.choice([0.5, 2, 9])
        p["autoscaling"] = scaling
    else:
        p["count"] = rng.randint(1, 2)
    resource = "nvidia.com/gpu"
    if kind == "mig":
        p["mig"] = {"config": rng.choice(["all-1g.5gb", "all-3g.20gb", "all-balanced"])}
        p["device_plugin"] = {"mig_strategy": "mixed"}
        resource = {"all-1g.5gb": "nvidia.com/mig-1g.5gb", "all-3g.20gb": "nvidia.com/mig-3g.20gb",
                    "all-balanced": "nvidia.com/mig-1g.5gb"}[p["mig"]["config"]]
    elif kind == "time-slicing":
        p["device_plugin"] = {"time_slicing": {"replicas": rng.randint(2, 4)}}
    elif kind == "mps":
        p["device_plugin"] = {"mps": {"replicas": rng.randint(2, 3)}}
    elif kind == "dra":
        p["dra"] = {}
        resource = None
    return p, resource


def template(rng, resource, job_class=None, priority=None, labels=None):
    t = {}
    if job_class:
        t["job_class"] = job_class
    if resource is None:
        t["resource_claims"] = [{"name": "gpu", "requests": [
            {"name": "gpu", "exactly": {"deviceClassName": "gpu.nvidia.com"}}]}]
    else:
        t["resources"] = {"cpu": "1", "memory": "4Gi", resource: 1}
    if priority:
        t["priorityClassName"] = priority
    if labels:
        t["labels"] = labels
    return t


def workloads(rng, resources, priorities, kueue):
    """A random mix of workloads over the pools' resources."""
    out, pdbs = {}, {}

    def res():
        return rng.choice(resources)

    def prio():
        return rng.choice(priorities + [None])

    for i in range(rng.randint(2, 8)):
        kind = rng.choice(["Job", "Deployment", "Pod", "DistributedJob", "Arrivals", "Workflow",
                           "KueueJob"])
        name = f"w{i}"
        at = rng.choice([0, 0, rng.randint(0, 3000)])
        if kind == "Job" or (kind == "KueueJob" and not kueue):
            n = rng.randint(1, 20)
            out[name] = {"kind": "Job", "at_s": at, "completions": n,
                         "parallelism": rng.randint(1, n), "backoff_limit": rng.randint(0, 6),
                         "template": template(rng, res(), rng.choice(["short", "long", "ckpt"]),
                                              prio())}
        elif kind == "KueueJob":
            out[name] = {"kind": "Job", "at_s": at, "namespace": "team",
                         "queue_name": "team-queue", "completions": rng.randint(1, 4),
                         "template": template(rng, "nvidia.com/gpu", "short", prio())}
        elif kind == "Deployment":
            d = {"kind": "Deployment", "at_s": at, "replicas": rng.randint(1, 4),
                 "template": template(rng, res(), None, prio(), {"app": name})}
            if rng.random() < 0.4:
                d["hpa"] = {"min_replicas": 1, "max_replicas": rng.randint(2, 8),
                            "target_per_replica": 10,
                            "load": {"diurnal": {"mean": rng.randint(5, 60), "amplitude": 0.5,
                                                 "peak_hour": rng.randint(0, 23)}}}
            out[name] = d
            if rng.random() < 0.5:
                pdbs[name] = {"selector": {"matchLabels": {"app": name}},
                              "minAvailable": rng.randint(0, 2)}
        elif kind == "Pod":
            out[name] = {"kind": "Pod", "at_s": at, "count": rng.randint(1, 10),
                         "template": template(rng, res(), "short", prio())}
        elif kind == "DistributedJob":
            out[name] = {"kind": "DistributedJob", "at_s": at, "workers": rng.randint(2, 3),
                         "backoff_limit": rng.randint(0, 3),
                         "template": template(rng, res(), rng.choice(["long", "ckpt"]), prio())}
        elif kind == "Arrivals":
            out[name] = {"kind": "Arrivals", "at_s": at, "count": rng.randint(5, 40),
                         "rate_per_s": rng.choice([0.005, 0.02, 0.1]),
                         "run_time": {"distribution": "exponential", "mean_s": rng.randint(30, 600)},
                         "mix": {"a": {"weight": 0.6, "template": template(rng, res(), None, prio())},
                                 "b": {"weight": 0.4, "template": template(rng, res(), None, prio())}}}
        else:
            steps = {"prep": {"template": template(rng, res(), "short")}}
            steps["fan"] = {"depends": ["prep"], "fan_out": rng.randint(1, 5),
                            "template": template(rng, res(), "short", prio())}
            if rng.random() < 0.5:
                steps["fan"]["retry"] = {"limit": rng.randint(0, 3), "policy": "Always"}
            steps["end"] = {"depends": ["fan"], "template": template(rng, res(), "short")}
            out[name] = {"kind": "Workflow", "at_s": at, "parallelism": rng.randint(0, 3),
                         "steps": steps}
    return out, pdbs


def faults(rng, fixed, scaled):
    """Failure processes and scripted faults on the pools (names: fixed, scaled)."""
    processes, scripted = [], []
    for name in scaled:
        if rng.random() < 0.8:
            processes.append({"name": f"spot-{name}", "kind": "spot-interruption", "pool": name,
                              "mtbf_h": rng.choice([0.2, 0.5, 1, 2, 5])})
    for name, p in fixed.items():
        if rng.random() < 0.3:
            processes.append({"name": f"lost-{name}", "kind": "node-lost", "pool": name,
                              "mtbf_h": rng.choice([1, 3]), "repair_s": rng.randint(60, 1800)})
        if rng.random() < 0.3:
            processes.append({"name": f"gpu-{name}", "kind": "gpu-unhealthy", "pool": name,
                              "mtbf_h": rng.choice([2, 8]), "repair_s": rng.randint(60, 1800)})
        node = f"{name}-0"
        for _ in range(rng.randint(0, 2)):
            at = rng.randint(0, 6000)
            kind = rng.choice(["node-lost", "gpu-unhealthy", "drain", "spot-interruption"]
                              + (["mig-reconfigure-failed"] if "mig" in p else []))
            f = {"at_s": at, "kind": kind}
            if kind == "gpu-unhealthy":
                f.update({"node": node, "gpus": [0], "repair_s": rng.randint(60, 3000)})
            else:
                f["nodes"] = [node]
            if kind in ("node-lost", "mig-reconfigure-failed"):
                f["repair_s"] = rng.randint(60, 3000)
            if kind == "drain":
                f["maintenance_s"] = rng.randint(60, 1800)
            scripted.append(f)
    for name in scaled:
        if rng.random() < 0.3:
            scripted.append({"at_s": rng.randint(100, 6000), "kind": "spot-interruption",
                             "pool": name, "count": 1})
    return processes, scripted


KUEUE = {
    "resourceFlavors": {"any": {}},
    "clusterQueues": {"team": {"namespaces": ["team"], "resourceGroups": [{
        "coveredResources": ["cpu", "memory", "nvidia.com/gpu"],
        "flavors": [{"name": "any", "resources": [
            {"name": "cpu", "nominalQuota": 16}, {"name": "memory", "nominalQuota": "64Gi"},
            {"name": "nvidia.com/gpu", "nominalQuota": 4}]}]}]}},
    "localQueues": {"team-queue": {"namespace": "team", "clusterQueue": "team"}},
}


def scenario(seed):
    """Scenario `seed` of the soak: the same text for the same seed."""
    rng = random.Random(seed)
    nodes, resources, fixed, scaled = {}, [], {}, []
    for i in range(rng.randint(0, 2)):
        p, r = pool(rng, rng.choice(SHARING), False)
        nodes[f"f{i}"] = fixed[f"f{i}"] = p
        resources.append(r)
    for i in range(rng.randint(1 if not nodes else 0, 3)):
        p, r = pool(rng, rng.choice(["whole", "whole", "time-slicing", "mig", "dra"]), True)
        nodes[f"s{i}"] = p
        scaled.append(f"s{i}")
        resources.append(r)
    cluster = {"nodes": nodes}
    if scaled:
        if rng.random() < 0.5:
            cluster["karpenter"] = {}
        else:
            cluster["autoscaler"] = {"expander": rng.choice(
                ["random", "least-waste", "most-pods", "price"])}
    priorities = []
    s = {"name": f"soak-{seed}", "description": "generated by scripts/soak", "seed": seed,
         "horizon_s": rng.choice([4000, 8000, 20000])}
    if rng.random() < 0.7:
        s["priority_classes"] = {"high": {"value": 1000}, "low": {"value": 10}}
        priorities = ["high", "low"]
    use_kueue = "nvidia.com/gpu" in resources and rng.random() < 0.3
    s["cluster"] = cluster
    s["job_classes"] = {"short": {"run_s": rng.randint(60, 600)},
                        "long": {"run_s": rng.randint(1000, 30000)},
                        "ckpt": {"startup_s": 30, "run_s": rng.randint(1000, 10000),
                                 "checkpoint_interval_s": 300}}
    if use_kueue:
        s["kueue"] = KUEUE
    s["workloads"], pdbs = workloads(rng, resources, priorities, use_kueue)
    if pdbs:
        s["pod_disruption_budgets"] = pdbs
    processes, scripted = faults(rng, fixed, scaled)
    if processes:
        s["fault_processes"] = processes
    if scripted:
        s["faults"] = scripted
    return s


def check(migsim, seed, keep):
    """None when scenario `seed` passes, else what failed (the scenario kept in `keep`)."""
    text = json.dumps(scenario(seed), indent=1)
    path = os.path.join(keep, f"soak-{seed}.json")
    with open(path, "w") as f:
        f.write(text)
    try:
        done = subprocess.run([migsim, "run", path, "--json", "--quiet"], capture_output=True,
                              text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return f"{path}: timed out after 600 s"
    problem = None
    if done.returncode != 0:
        problem = f"{path}: exit {done.returncode}: {done.stderr.strip()[:2000]}"
    else:
        try:
            for variant in json.loads(done.stdout)["variants"]:
                pods = variant["metrics"]["pods"]
                parts = sum(pods[k] for k in ("completed", "failed", "running", "pending",
                                              "deleted"))
                if parts != pods["submitted"]:
                    problem = f"{path}: pods do not add up: {pods}"
        except (ValueError, KeyError) as e:
            problem = f"{path}: unreadable --json output ({e})"
    if problem is None:
        os.remove(path)
    return problem


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--migsim", default="build/migsim", help="the migsim binary")
    parser.add_argument("--seeds", type=int, default=300, help="how many scenarios")
    parser.add_argument("--first", type=int, default=1, help="the first scenario's seed")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--keep", help="directory for failing scenarios (default: a new "
                        "temporary one)")
    parser.add_argument("--print", type=int, metavar="SEED", help="print scenario SEED and exit")
    args = parser.parse_args()
    if args.print is not None:
        print(json.dumps(scenario(args.print), indent=1))
        return 0
    if args.seeds < 1 or args.jobs < 1:
        parser.error("--seeds and --jobs must be at least 1")
    keep = args.keep or tempfile.mkdtemp(prefix="migsim-soak-")
    os.makedirs(keep, exist_ok=True)
    seeds = range(args.first, args.first + args.seeds)
    failures = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool_:
        for problem in pool_.map(lambda s: check(args.migsim, s, keep), seeds):
            if problem:
                failures.append(problem)
                print(problem, file=sys.stderr)
    print(f"soak: {len(seeds) - len(failures)} of {len(seeds)} generated scenarios passed "
          f"(seeds {seeds[0]}..{seeds[-1]})" + (f"; failing ones kept in {keep}" if failures else ""))
    if not failures and not args.keep:
        os.rmdir(keep)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
