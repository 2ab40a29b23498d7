#!/usr/bin/env python3
"""Writes bench/scenarios/shared-20k.json (bench/README.md, 'A device shared by thousands of
processes') to stdout; --waves N keeps the first N of its 200 waves of 100 pods (20 for the
callgrind figure).  Usage: bench/scenarios/make-shared-20k.py [--waves N] > FILE"""
import argparse
import json

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--waves", type=int, default=200)
waves, per_wave, every = parser.parse_args().waves, 100, 10
wl = {}
for w in range(waves):
    for cls, n in (("short", per_wave * 3 // 5), ("long", per_wave * 2 // 5)):
        wl[f"wave{w:03d}-{cls}"] = {
            "kind": "Pod", "at_s": w * every, "count": n,
            "template": {"job_class": cls,
                         "resources": {"cpu": "10m", "memory": "16Mi", "example.com/gpu-units": 50}}}
s = {
 "$schema": "../../schema/scenario.schema.json",
 "name": "shared-20k",
 "description": "Benchmark, not a seed: 20,000 pods sharing one device. A custom node of 2 A100s whose GPUs are split into fractional shares of 1,000,000 units; 20,000 pods arrive in 200 waves of 100 every 10 s, each holding 50 units (a cap of 0.005 % of the SMs): 'short' ones (600 s alone, duty cycle 0.00004: under their cap, full speed) and 'long' ones (1,500 s alone, duty cycle 0.0001: capped, half speed). All go to the first GPU, 11,600 of them at once at the peak (20,000 would fit): every start and stop there used to recompute every process's share (Engine::Reshare). The variant 'time-slicing' runs the same pods on the 2 GPUs time-sliced 10,000 ways (each asks one replica; duty cycles 0.3 and 0.8), 10,000 processes per GPU at the end: max-min fair shares, so every start and stop changes every process's speed.",
 "seed": 1,
 "cluster": {
  "node_types": {"pool": {"vcpu": 1024, "memory_gib": 4096, "gpus": 2, "gpu_model": "A100-SXM4-40GB"}},
  "nodes": {"pool": {"type": "pool", "count": 1, "mig": {"config": "all-disabled"},
            "device_plugin": {"mig_strategy": "none",
                              "fractional": {"resource": "example.com/gpu-units", "units": 1000000}}}}
 },
 "job_classes": {
  "short": {"run_s": {"gpu": 600}, "duty_cycle": 0.00004},
  "long": {"run_s": {"gpu": 1500}, "duty_cycle": 0.0001}
 },
 "workloads": wl,
 "variants": {
  "fractional": {},
  "time-slicing": {
   "cluster": {"nodes": {"pool": {"device_plugin": {"fractional": None, "time_slicing": {"replicas": 10000}}}}},
   "job_classes": {"short": {"duty_cycle": 0.3}, "long": {"duty_cycle": 0.8}},
   "workloads": {k: {"template": {"resources": {"example.com/gpu-units": None, "nvidia.com/gpu": 1}}} for k in wl}
  }
 }
}
print(json.dumps(s, indent=1))
