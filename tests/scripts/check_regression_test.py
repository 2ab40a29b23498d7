#!/usr/bin/env python3
"""Tests of scripts/check-regression, one case per ctest test (tests/scripts/CMakeLists.txt).

    check_regression_test.py CASE --migsim PATH

Every case works on temporary copies of the committed baselines and runs only the
56-superres scenario (and speed run), so it takes well under a second or two.
Exit codes: 0 passed, 1 failed, 77 skipped (valgrind missing for the speed case).
"""

import argparse
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
GATE = os.path.join(ROOT, "scripts", "check-regression")
BASELINE = os.path.join(ROOT, "bench", "baseline", "regression.json")
SPEED_BASELINE = os.path.join(ROOT, "bench", "baseline", "speed.json")


class Failure(Exception):
    pass


def gate(migsim, *args):
    p = subprocess.run([GATE, "--migsim", migsim] + list(args), cwd=ROOT,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    return p.returncode, p.stdout


def expect(cond, what, output=""):
    if not cond:
        raise Failure(what + ("\n--- gate output ---\n" + output if output else ""))


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def dump(path, data):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)


def case_passes(migsim, tmp):
    """The committed baseline matches this build."""
    rc, out = gate(migsim, "--only", "56-superres", "--no-speed")
    expect(rc == 0, "expected exit 0 against the committed baseline, got %d" % rc, out)
    expect("ok    56-superres" in out, "expected an ok line for 56-superres", out)
    expect("check-regression: 1 passed, 0 failed" in out, "expected the closing count", out)


def case_fails(migsim, tmp):
    """An altered value, count or variant fails with exit 1 and a diff naming it."""
    doc = load(BASELINE)
    variants = doc["scenarios"]["56-superres"]["variants"]
    original = variants["whole-gpu"]["makespan_s"]
    variants["whole-gpu"]["makespan_s"] = original * 1.01
    variants["mig-1g.5gb"]["pods"]["completed"] += 1
    bad = os.path.join(tmp, "regression.json")
    dump(bad, doc)
    rc, out = gate(migsim, "--only", "56-superres", "--no-speed", "--baseline", bad)
    expect(rc == 1, "expected exit 1 for an altered baseline, got %d" % rc, out)
    expect("REGRESSION" in out, "expected a REGRESSION heading", out)
    for needle in ("metric", "baseline", "change",                       # the table header
                   "whole-gpu", "makespan_s", repr(original * 1.01), repr(original),
                   "mig-1g.5gb", "pods.completed", "check-regression: 0 passed, 1 failed"):
        expect(needle in out, "expected %r in the diff" % needle, out)
    expect("-0.9901 %" in out, "expected the relative change in percent", out)

    # Within a tolerance override the same drift passes.
    doc["scenarios"]["56-superres"]["variants"]["mig-1g.5gb"]["pods"]["completed"] -= 1
    doc["tolerance"]["overrides"] = {"56-superres/whole-*/makespan_s": {"rel": 0.02}}
    dump(bad, doc)
    rc, out = gate(migsim, "--only", "56-superres", "--no-speed", "--baseline", bad)
    expect(rc == 0, "expected a 1 %% drift to pass a 2 %% override, got %d" % rc, out)
    expect("within tolerance" in out, "expected 'within tolerance'", out)

    # A variant the scenario no longer has, and one the baseline lacks.
    doc["tolerance"]["overrides"] = {}
    variants["whole-gpu"]["makespan_s"] = original
    variants["renamed-gpu"] = variants.pop("whole-gpu")
    dump(bad, doc)
    rc, out = gate(migsim, "--only", "56-superres", "--no-speed", "--baseline", bad)
    expect(rc == 1, "expected exit 1 for a renamed variant, got %d" % rc, out)
    expect("variant renamed-gpu is in the baseline but the scenario no longer has it" in out,
           "expected the missing variant to be named", out)
    expect("variant whole-gpu is new" in out, "expected the new variant to be named", out)

    # A scenario the baseline does not have.
    del doc["scenarios"]["56-superres"]
    dump(bad, doc)
    rc, out = gate(migsim, "--only", "56-superres", "--no-speed", "--baseline", bad)
    expect(rc == 1 and "scenario 56-superres (scenarios/56-superres.json) is not in the "
           "baseline" in out, "expected a missing scenario to fail", out)


def case_yaml(migsim, tmp):
    """A YAML scenario is gated beside the JSON one of the same stem, under its file name."""
    rc, out = gate(migsim, "--only", "bert-a100*", "--no-speed")
    expect(rc == 0, "expected exit 0 against the committed baseline, got %d" % rc, out)
    for line in ("ok    bert-a100 ", "ok    bert-a100.yaml ", "check-regression: 2 passed"):
        expect(line in out, "expected %r" % line, out)


def case_update(migsim, tmp):
    """--update rewrites a stale baseline (sorted, stable), keeping the other scenarios."""
    doc = load(BASELINE)
    committed = copy.deepcopy(doc)
    doc["scenarios"]["56-superres"]["variants"]["whole-gpu"]["makespan_s"] = 1.0
    del doc["scenarios"]["56-superres"]["variants"]["mig-1g.5gb"]
    doc["tolerance"]["overrides"] = {"gpu_compute_utilization": {"rel": 1e-3}}
    stale = os.path.join(tmp, "regression.json")
    dump(stale, doc)
    rc, out = gate(migsim, "--only", "56-superres", "--no-speed", "--baseline", stale)
    expect(rc == 1, "the stale copy should fail before the update, got %d" % rc, out)

    rc, out = gate(migsim, "--update", "--only", "56-superres", "--no-speed", "--baseline", stale)
    expect(rc == 0, "expected --update to exit 0, got %d" % rc, out)
    with open(stale, encoding="utf-8") as f:
        first = f.read()
    updated = json.loads(first)
    expect(sorted(updated["scenarios"]) == sorted(committed["scenarios"]),
           "--update --only must keep the other scenarios", first)
    expect(set(updated["scenarios"]["56-superres"]["variants"]) == {"mig-1g.5gb", "whole-gpu"},
           "--update must record every variant", first)
    expect(updated["tolerance"]["overrides"] == {"gpu_compute_utilization": {"rel": 1e-3}},
           "--update must keep the tolerance settings", first)
    expect(first == json.dumps(updated, indent=2, sort_keys=True, ensure_ascii=False) + "\n",
           "the baseline must be written sorted, indented by 2", first)

    rc, out = gate(migsim, "--only", "56-superres", "--no-speed", "--baseline", stale)
    expect(rc == 0, "expected the updated baseline to pass, got %d" % rc, out)

    rc, out = gate(migsim, "--update", "--only", "56-superres", "--no-speed", "--baseline", stale)
    with open(stale, encoding="utf-8") as f:
        expect(rc == 0 and f.read() == first, "a second --update must not change the file", out)


def case_speed(migsim, tmp):
    """Instruction counts: +5 % fails, -20 % asks for an update, --update records."""
    if not shutil.which("valgrind"):
        print("SKIPPED: valgrind not installed")
        sys.exit(77)
    doc = load(SPEED_BASELINE)
    real = doc["runs"]["56-superres"]["instructions"]
    doc["runs"]["56-superres"]["instructions"] = int(real / 1.5)
    speed = os.path.join(tmp, "speed.json")
    dump(speed, doc)
    args = ("--speed-only", "--only", "56-superres", "--speed-baseline", speed)
    rc, out = gate(migsim, *args)
    expect(rc == 1 and "SPEED REGRESSION" in out and "56-superres" in out,
           "expected 50 % more instructions to fail", out)

    doc["runs"]["56-superres"]["instructions"] = int(real * 1.5)
    dump(speed, doc)
    rc, out = gate(migsim, *args)
    expect(rc == 0 and "faster than its baseline" in out,
           "expected a third fewer instructions to pass and ask for an update", out)

    rc, out = gate(migsim, "--update", *args)
    expect(rc == 0, "expected --update to exit 0, got %d" % rc, out)
    recorded = load(speed)["runs"]
    expect(sorted(recorded) == sorted(doc["runs"]), "--update --only must keep the other runs",
           out)
    rc, out = gate(migsim, *args)
    expect(rc == 0 and "ratio 1.0000" in out, "expected the updated count to pass", out)


CASES = {"passes": case_passes, "fails": case_fails, "update": case_update,
         "speed": case_speed, "yaml": case_yaml}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("case", choices=sorted(CASES))
    p.add_argument("--migsim", required=True)
    args = p.parse_args()
    tmp = tempfile.mkdtemp(prefix="migsim-gate-test-")
    try:
        CASES[args.case](os.path.abspath(args.migsim), tmp)
    except Failure as e:
        print("FAILED: %s" % e)
        return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("passed: %s" % args.case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
