#!/usr/bin/env python3
"""Writes the example telemetry export in this folder: one Prometheus range-query response
per metric, as `curl .../api/v1/query_range` saves it (README "Telemetry export").

Two hours of a namespace "ml": Job resnet50-train (5 pods on A100 MIG 3g.20gb instances,
dcgm-exporter with the profiling metrics), Job bert-eval (4 pods on whole L4 GPUs, default
counters only: DCGM_FI_DEV_GPU_UTIL, one pod OOMKilled, one with no GPU series) and
Deployment llm-serve (3 pods on A100-80GB 1g.10gb instances, still running at the end).

It also writes the kubectl snapshot taken at the end of those two hours, matching the export:
nodes.json (kubectl get nodes -o json), pods.json (kubectl get pods -A -o json: the Jobs'
finished pods with their containers' terminated times, llm-serve's running pods) and
jobs.json (kubectl get jobs -A -o json: the two Jobs, and data-prep, whose pods are gone).
bert-eval ran on a g6.12xlarge (4 L4), still in the cluster, so the import keys its observed
run time to L4 (README "Telemetry export").
Run it again after changing it; tests/sim/io/telemetry and tests/sim/io/k8s check the
figures it gives."""
import json
import time
import uuid
import os

START, END, STEP = 1764201600, 1764208800, 60  # 2025-11-27 00:00 to 02:00 UTC, 1 min
KSM = {"instance": "10.0.3.17:8080", "job": "kube-state-metrics"}
HERE = os.path.dirname(os.path.abspath(__file__))


def pod(name, uid, owner_kind, owner, created, wait, run, node, reason=None, gpu=True):
    return dict(name=name, uid=uid, owner_kind=owner_kind, owner=owner, created=created,
                started=created + wait, finished=None if run is None else created + wait + run,
                node=node, reason=reason, gpu=gpu)


A100_40 = dict(Hostname="gpu-a100-40-0", modelName="NVIDIA A100-SXM4-40GB", profile="3g.20gb",
               instance="10.0.4.11:9400", container="trainer")
L4 = dict(Hostname="gpu-l4-0", modelName="NVIDIA L4", profile=None, instance="10.0.4.21:9400",
          container="eval")
A100_80 = dict(Hostname="gpu-a100-80-0", modelName="NVIDIA A100-SXM4-80GB", profile="1g.10gb",
               instance="10.0.4.31:9400", container="server")
RS = "llm-serve-7d9f8b6c5d"
PODS = [
    pod("resnet50-train-4xk2p", "5f0c1a2e-0001", "Job", "resnet50-train", 1764201720, 4, 1800, A100_40, "Completed"),
    pod("resnet50-train-9qz7m", "5f0c1a2e-0002", "Job", "resnet50-train", 1764201720, 6, 1920, A100_40, "Completed"),
    pod("resnet50-train-b2rtl", "5f0c1a2e-0003", "Job", "resnet50-train", 1764201721, 35, 1740, A100_40, "Completed"),
    pod("resnet50-train-hc8wd", "5f0c1a2e-0004", "Job", "resnet50-train", 1764201721, 41, 2100, A100_40, "Completed"),
    pod("resnet50-train-t5nvx", "5f0c1a2e-0005", "Job", "resnet50-train", 1764203700, 3, 1860, A100_40, "Completed"),
    pod("bert-eval-2lmfd", "7a31c9d4-0001", "Job", "bert-eval", 1764204000, 9, 600, L4, "Completed"),
    pod("bert-eval-8pwks", "7a31c9d4-0002", "Job", "bert-eval", 1764204000, 11, 660, L4, "Completed"),
    pod("bert-eval-fj6xq", "7a31c9d4-0003", "Job", "bert-eval", 1764204001, 12, 420, L4, "OOMKilled"),
    pod("bert-eval-rw9zc", "7a31c9d4-0004", "Job", "bert-eval", 1764204001, 14, 720, L4, "Completed", gpu=False),
    pod(RS + "-k7x2q", "c4e8b0f1-0001", "ReplicaSet", RS, 1764201650, 20, None, A100_80),
    pod(RS + "-p3v9d", "c4e8b0f1-0002", "ReplicaSet", RS, 1764201650, 22, None, A100_80),
    pod(RS + "-zq4hn", "c4e8b0f1-0003", "ReplicaSet", RS, 1764205200, 18, None, A100_80),
]


def grid(first, last):
    """The range query's evaluation times in [first, last]."""
    t = START + max(0, -(-(first - START) // STEP)) * STEP
    while t <= min(last, END):
        yield t
        t += STEP


def fmt(v):
    return "NaN" if v != v else (str(int(v)) if float(v).is_integer() else repr(float(v)))


def series(metric, labels, points):
    return {"metric": {"__name__": metric, **labels}, "values": [[t, fmt(v)] for t, v in points]}


def ksm_labels(p, **extra):
    return {**KSM, "namespace": "ml", "pod": p["name"], "uid": p["uid"], **extra}


def stamp(p, value_of):
    value = value_of(p)
    return None if value is None else [(t, value) for t in grid(value, END)]


def dcgm_labels(node, gpu_index, instance_id, p):
    labels = {"DCGM_FI_DRIVER_VERSION": "550.90.07", "Hostname": node["Hostname"],
              "UUID": str(uuid.uuid5(uuid.NAMESPACE_DNS, "%s/%d" % (node["Hostname"], gpu_index))).join(["GPU-", ""]), "device": "nvidia%d" % gpu_index,
              "gpu": str(gpu_index), "instance": node["instance"], "job": "nvidia-dcgm-exporter",
              "modelName": node["modelName"], "pci_bus_id": "00000000:%02X:00.0" % (7 + gpu_index)}
    if node["profile"]:
        labels.update(GPU_I_ID=str(instance_id), GPU_I_PROFILE=node["profile"])
    if p is not None:
        labels.update(container=node["container"], namespace="ml", pod=p["name"])
    return labels


def usage(p, i, pattern, scale):
    """A pod's samples while it runs: `pattern` cycled, times `scale`."""
    end = p["finished"] if p["finished"] is not None else END
    return [(t, pattern[(k + i) % len(pattern)] * scale if scale == 1 else round(pattern[(k + i) % len(pattern)] * scale))
            for k, t in enumerate(grid(p["started"], end))]


def gpu_series():
    busy = {"DCGM_FI_PROF_GR_ENGINE_ACTIVE": [], "DCGM_FI_DEV_GPU_UTIL": [], "DCGM_FI_DEV_FB_USED": []}
    for i, p in enumerate(PODS):
        if not p["gpu"]:
            continue
        node = p["node"]
        labels = dcgm_labels(node, i % 4, (1 + i % 2) if node is A100_40 else (9 + i % 3), p)
        if node is L4:
            busy["DCGM_FI_DEV_GPU_UTIL"].append(series("DCGM_FI_DEV_GPU_UTIL", labels, usage(p, i, [91, 88, 95, 93], 1)))
        else:
            pattern = [0.62, 0.71, 0.68, 0.74] if node is A100_40 else [0.35, 0.41, float("nan"), 0.38]
            busy["DCGM_FI_PROF_GR_ENGINE_ACTIVE"].append(series("DCGM_FI_PROF_GR_ENGINE_ACTIVE", labels, usage(p, i, pattern, 1)))
        peak = {id(A100_40): 17850, id(L4): 14200, id(A100_80): 8900}[id(node)] + 100 * (i % 5)
        if p["reason"] == "OOMKilled":
            peak = 22912
        busy["DCGM_FI_DEV_FB_USED"].append(series("DCGM_FI_DEV_FB_USED", labels, usage(p, i, [0.55, 0.9, 1.0, 0.97], peak)))
    idle = dcgm_labels(A100_80, 3, 13, None)  # a MIG instance no pod held
    busy["DCGM_FI_PROF_GR_ENGINE_ACTIVE"].append(series("DCGM_FI_PROF_GR_ENGINE_ACTIVE", idle, [(t, 0) for t in grid(START, END)]))
    busy["DCGM_FI_DEV_FB_USED"].append(series("DCGM_FI_DEV_FB_USED", idle, [(t, 0) for t in grid(START, END)]))
    return busy


def ksm_series():
    out = {}
    for metric, value_of in [("kube_pod_created", lambda p: p["created"]),
                             ("kube_pod_start_time", lambda p: p["started"]),
                             ("kube_pod_completion_time", lambda p: p["finished"])]:
        out[metric] = [series(metric, ksm_labels(p), stamp(p, value_of)) for p in PODS if stamp(p, value_of)]
    out["kube_pod_owner"] = [series("kube_pod_owner", ksm_labels(p, owner_is_controller="true", owner_kind=p["owner_kind"], owner_name=p["owner"]), [(t, 1) for t in grid(p["created"], END)]) for p in PODS]
    out["kube_pod_container_status_terminated_reason"] = [
        series("kube_pod_container_status_terminated_reason", ksm_labels(p, container=p["node"]["container"], reason=p["reason"]), [(t, 1) for t in grid(p["finished"], END)])
        for p in PODS if p["reason"]]
    out["kube_replicaset_owner"] = [series("kube_replicaset_owner", {**KSM, "namespace": "ml", "owner_is_controller": "true", "owner_kind": "Deployment", "owner_name": "llm-serve", "replicaset": RS}, [(t, 1) for t in grid(START, END)])]
    return out


def write(metric, result):
    text = '{"status":"success","data":{"resultType":"matrix","result":[\n'
    text += ",\n".join(json.dumps(s, separators=(",", ":")) for s in result)
    with open(os.path.join(HERE, metric + ".json"), "w") as f:
        f.write(text + "\n]}}\n")


def rfc3339(t):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


GFD = {"nvidia.com/mig.strategy": "mixed"}
NODES = [  # (name, instance type, GFD product, GPUs, MIG config, advertised extended resources)
    ("gpu-a100-40-0", "p4d.24xlarge", "NVIDIA-A100-SXM4-40GB", 8, "all-balanced",
     {"nvidia.com/mig-1g.5gb": "16", "nvidia.com/mig-2g.10gb": "8", "nvidia.com/mig-3g.20gb": "8"}),
    ("gpu-a100-80-0", "p4de.24xlarge", "NVIDIA-A100-SXM4-80GB", 8, "all-1g.10gb",
     {"nvidia.com/mig-1g.10gb": "56"}),
    ("gpu-l4-0", "g6.12xlarge", "NVIDIA-L4", 4, None, {"nvidia.com/gpu": "4"}),
]


def node_json(name, itype, product, gpus, mig, extended):
    labels = {"kubernetes.io/hostname": name, "node.kubernetes.io/instance-type": itype,
              "nvidia.com/gpu.count": str(gpus), "nvidia.com/gpu.product": product}
    if mig:
        labels.update({**GFD, "nvidia.com/mig.config": mig})
    cpu, mem = {"p4d.24xlarge": ("96", "1176484772Ki"), "p4de.24xlarge": ("96", "1176484772Ki"),
                "g6.12xlarge": ("48", "195603160Ki")}[itype]
    return {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": name, "labels": labels, "creationTimestamp": rfc3339(START - 86400)},
            "spec": {"taints": [{"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}]},
            "status": {"capacity": {"cpu": cpu, "memory": mem, **extended},
                       "allocatable": {"cpu": cpu, "memory": mem, **extended},
                       "conditions": [{"type": "Ready", "status": "True"}]}}


REQUESTS = {id(A100_40): {"cpu": "8", "memory": "32Gi", "nvidia.com/mig-3g.20gb": "1"},
            id(L4): {"cpu": "4", "memory": "16Gi", "nvidia.com/gpu": "1"},
            id(A100_80): {"cpu": "2", "memory": "8Gi", "nvidia.com/mig-1g.10gb": "1"}}
NODE_NOW = {id(A100_40): "gpu-a100-40-0", id(L4): "gpu-l4-0", id(A100_80): "gpu-a100-80-0"}


def pod_json(p):
    node = p["node"]
    requests = REQUESTS[id(node)]
    limits = {k: v for k, v in requests.items() if k.startswith("nvidia.com/")}
    labels = {"app": p["owner"]} if p["owner_kind"] == "Job" else {"app": "llm-serve", "pod-template-hash": RS.rsplit("-", 1)[1]}
    if p["owner_kind"] == "Job":
        labels.update({"batch.kubernetes.io/job-name": p["owner"], "job-name": p["owner"]})
    container = {"name": node["container"], "image": "registry.example.com/%s:1.0" % p["owner"],
                 "resources": {"requests": requests, "limits": limits}}
    status = {"phase": "Running", "startTime": rfc3339(p["started"])}
    state = {"running": {"startedAt": rfc3339(p["started"])}}
    if p["finished"] is not None:
        failed = p["reason"] != "Completed"
        status["phase"] = "Failed" if failed else "Succeeded"
        state = {"terminated": {"exitCode": 137 if failed else 0, "reason": p["reason"],
                                "startedAt": rfc3339(p["started"]), "finishedAt": rfc3339(p["finished"])}}
    status["containerStatuses"] = [{"name": node["container"], "ready": p["finished"] is None,
                                    "restartCount": 0, "state": state}]
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": p["name"], "namespace": "ml", "uid": p["uid"], "labels": labels,
                         "creationTimestamp": rfc3339(p["created"]),
                         "ownerReferences": [{"apiVersion": "batch/v1" if p["owner_kind"] == "Job" else "apps/v1",
                                              "kind": p["owner_kind"], "name": p["owner"],
                                              "controller": True, "blockOwnerDeletion": True}]},
            "spec": {"containers": [container], "nodeName": NODE_NOW[id(node)] if p["finished"] is None else node["Hostname"],
                     "restartPolicy": "Never" if p["owner_kind"] == "Job" else "Always",
                     "schedulerName": "default-scheduler",
                     "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]},
            "status": status}


def job_json(name, pods, start=None, completion=None):
    start = min(p["created"] for p in pods) if pods else start
    completion = max(p["finished"] for p in pods) if pods else completion
    failed = sum(1 for p in pods if p["reason"] not in (None, "Completed"))
    return {"apiVersion": "batch/v1", "kind": "Job",
            "metadata": {"name": name, "namespace": "ml", "creationTimestamp": rfc3339(start)},
            "spec": {"completions": len(pods) - failed if pods else 1, "backoffLimit": 6},
            "status": {"startTime": rfc3339(start), "completionTime": rfc3339(completion),
                       "succeeded": len(pods) - failed if pods else 1, "failed": failed,
                       "conditions": [{"type": "Complete", "status": "True"}]}}


def write_list(name, items):
    with open(os.path.join(HERE, name), "w") as f:
        json.dump({"apiVersion": "v1", "kind": "List", "items": items}, f, indent=1)
        f.write("\n")


for metric, result in {**ksm_series(), **gpu_series()}.items():
    write(metric, result)
write_list("nodes.json", [node_json(*n) for n in NODES])
write_list("pods.json", [pod_json(p) for p in PODS])
write_list("jobs.json", [job_json(j, [p for p in PODS if p["owner"] == j]) for j in ("resnet50-train", "bert-eval")] +
           [job_json("data-prep", [], START - 3600, START - 1200)])
