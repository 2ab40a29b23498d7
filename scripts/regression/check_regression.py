#!/usr/bin/env python3
"""The regression gate of migsim (plain python3, standard library only).

Functional part: runs `migsim run FILE --json --quiet` on every scenario of the suite
(scenarios/*.json and *.yaml by default) and compares each variant's metrics with
bench/baseline/regression.json: counts exactly, times and ratios within a relative
tolerance (1e-6 by default: the simulator is deterministic, so any drift is a change).

Speed part: counts the instructions of a few representative migsim runs under
`valgrind --tool=callgrind` (repeatable on a noisy machine, unlike seconds) and compares
them with bench/baseline/speed.json: more than +5 % fails, less than -20 % asks for the
baseline to be updated.

Exit codes: 0 passed (or baseline updated), 1 a regression or a failed run, 2 usage.
"""

import argparse
import concurrent.futures
import fnmatch
import glob
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DEFAULT_MIGSIM = os.path.join(ROOT, "build", "migsim")
DEFAULT_BASELINE = os.path.join(ROOT, "bench", "baseline", "regression.json")
DEFAULT_SPEED_BASELINE = os.path.join(ROOT, "bench", "baseline", "speed.json")
DEFAULT_SCENARIOS = [os.path.join(ROOT, "scenarios", "*.json"),
                     os.path.join(ROOT, "scenarios", "*.yaml")]
# Runs of the default functional suite beyond the scenario files: a file run with options
# of its own, {name: (file relative to the root, options)}. mig-100k-streaming holds the
# results of a run that gives back the records of pods that are over and reports
# percentiles past 20,000 values from the sketch (README "Large runs"): 100,000 pods of
# the 100-million-pod path in a fraction of a second.
DEFAULT_EXTRA_RUNS = {
    "mig-100k-streaming": ("bench/scenarios/mig-100k.json", ["--exact-limit", "20000"]),
}

DEFAULT_TOLERANCE = {"default_rel": 1e-6, "default_abs": 0.0, "overrides": {}}
DEFAULT_SPEED_TOLERANCE = {"max_increase": 0.05, "update_below": -0.20}
# The speed suite used when bench/baseline/speed.json does not exist yet. Arguments are
# relative to the repository root (the runs' working directory).
DEFAULT_SPEED_RUNS = {
    "56-superres": {
        "what": "the flagship scenario: 2 variants, 114 pods; mostly loading and start-up",
        "args": ["run", "scenarios/56-superres.json", "--json", "--quiet"],
    },
    "mig-100k-first-fit": {
        "what": "100,000 MIG pods on 100 p4d nodes, first-fit: the engine and the queue",
        "args": ["run", "bench/scenarios/mig-100k.json", "--variant", "first-fit",
                 "--json", "--quiet"],
    },
    "mig-100k-best-fit": {
        "what": "the same 100,000 pods, best-fit: scoring every node for every pod",
        "args": ["run", "bench/scenarios/mig-100k.json", "--variant", "best-fit",
                 "--json", "--quiet"],
    },
    "openb-small-fgd": {
        "what": "milli-GPU fill with FGD on tests/golden/openb-small, 20 seeds, one thread",
        "args": ["openb", "--data", "tests/golden/openb-small", "--trace", "small",
                 "--policy", "fgd", "--seeds", "1-20", "--jobs", "1", "--quiet"],
    },
}

BASELINE_ABOUT = (
    "Metrics of every scenario of the suite, per variant, as `migsim run FILE --json` "
    "prints them. Checked by scripts/check-regression; rewritten by "
    "scripts/check-regression --update. Counts (pods.*, *.count) and strings compare "
    "exactly; other numbers pass when |now - baseline| <= max(abs, rel * |baseline|), "
    "with tolerance.default_rel / default_abs unless a key of tolerance.overrides matches: "
    "a key with '/' is a glob on 'scenario/variant/metric', one without on the metric "
    "(e.g. 'queueing_latency_s.p95'); the longest matching key wins; its value sets "
    "'rel', 'abs' (counts too) or 'ignore': true.")
SPEED_ABOUT = (
    "Instructions executed by each run (valgrind --tool=callgrind, totals), from the "
    "repository root. Checked by scripts/check-regression; rewritten by "
    "scripts/check-regression --update. A run fails when now / baseline > 1 + "
    "tolerance.max_increase; below 1 + tolerance.update_below the gate asks for an "
    "update (a run may override either). Counts depend on the compiler and its flags "
    "(recorded_with): re-record them after changing the toolchain.")


class UsageError(Exception):
    pass


# ---------------------------------------------------------------------------------------
# Small helpers

def rel(path):
    """A path relative to the repository root when it is inside it."""
    path = os.path.realpath(path)
    if path == ROOT or path.startswith(ROOT + os.sep):
        return os.path.relpath(path, ROOT)
    return path


def load_json(path, what):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        raise UsageError("cannot read %s %s: %s" % (what, path, e))


def write_json(path, data):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    text = json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def flatten(obj, prefix=""):
    """{"a": {"b": 1}} -> {"a.b": 1}."""
    out = {}
    for key, value in obj.items():
        path = prefix + key
        if isinstance(value, dict):
            out.update(flatten(value, path + "."))
        else:
            out[path] = value
    return out


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def is_count(metric, base, now):
    if metric.startswith("pods.") or metric.endswith(".count"):
        return True
    return isinstance(base, int) and isinstance(now, int) and not isinstance(base, bool)


def fmt(v):
    if v is MISSING:
        return "(missing)"
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    return json.dumps(v)


def change(base, now):
    if base is MISSING or now is MISSING:
        return "missing" if now is MISSING else "new"
    if is_number(base) and is_number(now):
        if base == now:
            return "0 %"
        if base == 0:
            return "from 0"
        return "%+.4g %%" % ((now - base) / abs(base) * 100.0)
    return "changed"


class _Missing:
    pass


MISSING = _Missing()


def print_table(rows, header):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    print("  ".join("%-*s" % (w, h) for w, h in zip(widths, header)).rstrip())
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join("%-*s" % (w, c) for w, c in zip(widths, r)).rstrip())


def plural(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def baseline_option(args):
    if args.baseline == DEFAULT_BASELINE:
        return ""
    return " --baseline " + rel(args.baseline)


def matches_any(name, patterns):
    return any(fnmatch.fnmatchcase(name, p) for p in patterns)


# ---------------------------------------------------------------------------------------
# Functional part

def discover(specs):
    """Scenario files from directories, globs or files: {name: absolute path}, the name a
    JSON file's stem, a YAML file's whole file name (bert-a100.yaml beside bert-a100)."""
    found = {}
    for spec in specs:
        if os.path.isdir(spec):
            paths = sorted(glob.glob(os.path.join(spec, "*.json")) +
                           glob.glob(os.path.join(spec, "*.yaml")))
        elif any(c in spec for c in "*?["):
            paths = sorted(glob.glob(spec))
        elif os.path.isfile(spec):
            paths = [spec]
        else:
            raise UsageError("no scenario file or directory %s" % spec)
        for p in paths:
            stem = os.path.basename(p)
            stem = stem[:-len(".json")] if stem.endswith(".json") else stem
            p = os.path.realpath(p)
            if stem in found and found[stem] != p:
                raise UsageError("two scenarios named %s: %s and %s"
                                 % (stem, rel(found[stem]), rel(p)))
            found[stem] = p
    return found


def gated_metrics(variant):
    """A variant's metrics, with its gang and fault summaries where it has them (not their
    event lists or time series: those are outputs, not figures to hold)."""
    metrics = dict(variant["metrics"])
    if variant.get("gangs") is not None:
        metrics["gangs"] = variant["gangs"]
    faults = variant.get("faults")
    if faults is not None:
        kept = {k: v for k, v in faults.items() if k not in ("events", "availability")}
        kept["availability"] = {pool: {"mean": a["mean"], "min": a["min"]}
                                for pool, a in faults.get("availability", {}).items()}
        metrics["faults"] = kept
    return metrics


def run_scenario(migsim, path, options=()):
    """Returns ({variant: metrics}, error message or None)."""
    cmd = [migsim, "run", path, "--json", "--quiet"] + list(options)
    try:
        p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
    except OSError as e:
        return None, "cannot run %s: %s" % (migsim, e)
    if p.returncode != 0:
        return None, "`migsim run %s --json` exited %d: %s" % (
            rel(path), p.returncode, p.stderr.strip()[-2000:])
    try:
        doc = json.loads(p.stdout)
        variants = {}
        for v in doc["variants"]:
            if v["name"] in variants:
                return None, "two variants named %s in the output" % v["name"]
            variants[v["name"]] = gated_metrics(v)
    except (ValueError, KeyError, TypeError) as e:
        return None, "unexpected output of `migsim run %s --json`: %s" % (rel(path), e)
    return variants, None


def tolerance_for(tol, scenario, variant, metric):
    best, best_len = None, -1
    full = "%s/%s/%s" % (scenario, variant, metric)
    for key, value in (tol.get("overrides") or {}).items():
        target = full if "/" in key else metric
        if fnmatch.fnmatchcase(target, key) and len(key) > best_len:
            best, best_len = value, len(key)
    return best or {}


def compare_metrics(tol, scenario, variant, base, now):
    """Rows of differences between two metrics objects; (rows, compared, max drift)."""
    fb, fn = flatten(base), flatten(now)
    rows, compared, max_drift = [], 0, 0.0
    for metric in sorted(set(fb) | set(fn)):
        b, n = fb.get(metric, MISSING), fn.get(metric, MISSING)
        if b is MISSING:
            # A metric the baseline does not know: a new output, not a regression.
            NOTES.append("%s / %s: new metric %s = %s is not in the baseline "
                         "(not compared; --update records it)"
                         % (scenario, variant, metric, fmt(n)))
            continue
        over = tolerance_for(tol, scenario, variant, metric)
        if over.get("ignore"):
            continue
        compared += 1
        if n is MISSING:
            rows.append((scenario, variant, metric, fmt(b), fmt(n), change(b, n)))
            continue
        if is_number(b) and is_number(n):
            if is_count(metric, b, n) and "rel" not in over and "abs" not in over:
                ok = b == n
            else:
                r = float(over.get("rel", tol.get("default_rel", 1e-6)))
                a = float(over.get("abs", tol.get("default_abs", 0.0)))
                diff = abs(n - b)
                ok = diff <= max(a, r * abs(b))
                if b != 0:
                    max_drift = max(max_drift, diff / abs(b))
                elif diff:
                    max_drift = max(max_drift, float("inf"))
        else:
            ok = b == n and type(b) is type(n)
        if not ok:
            rows.append((scenario, variant, metric, fmt(b), fmt(n), change(b, n)))
    return rows, compared, max_drift


NOTES = []


def functional(args, baseline_doc, only, matched):
    """Returns (passed, failed, new baseline scenarios or None)."""
    suite = discover(args.scenarios or DEFAULT_SCENARIOS)
    options = {}
    if not args.scenarios:
        for name, (path, opts) in DEFAULT_EXTRA_RUNS.items():
            suite[name] = os.path.join(ROOT, path)
            options[name] = opts
    if only:
        suite = {k: v for k, v in suite.items() if matches_any(k, only)}
        for p in only:
            if any(fnmatch.fnmatchcase(k, p) for k in suite):
                matched.add(p)
    tol = dict(DEFAULT_TOLERANCE)
    tol.update((baseline_doc or {}).get("tolerance") or {})
    recorded = (baseline_doc or {}).get("scenarios") or {}

    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {k: pool.submit(run_scenario, args.migsim, p, options.get(k, ()))
                   for k, p in suite.items()}
        results = {k: f.result() for k, f in futures.items()}
    elapsed = time.monotonic() - t0

    errors = []
    for name in sorted(results):
        if results[name][1]:
            errors.append("%s: %s" % (name, results[name][1]))

    if args.update:
        if errors:
            for e in errors:
                print("FAILED " + e)
            return 0, len(errors), None
        new = {} if not only else {k: v for k, v in recorded.items() if k not in suite}
        for name, (variants, _) in results.items():
            new[name] = {"file": rel(suite[name]), "variants": variants}
            if options.get(name):
                new[name]["options"] = options[name]
        for name in sorted(results):
            print("recorded  %-24s %s" % (name, plural(len(results[name][0]), "variant")))
        return len(results), 0, new

    rows, messages, passed, failed = [], [], 0, 0
    summaries = []
    for name in sorted(set(suite) | set(k for k in recorded if not only or matches_any(k, only))):
        if name not in suite:
            messages.append("scenario %s (%s) is in the baseline but not in the suite: its "
                            "file is gone or was renamed (--update drops it)"
                            % (name, recorded[name].get("file", "?")))
            rows.append((name, "-", "(scenario)", "recorded", "(missing)", "missing"))
            failed += 1
            continue
        variants, err = results[name]
        if err:
            messages.append(err if err.startswith(name) else "%s: %s" % (name, err))
            failed += 1
            summaries.append("FAIL  %-24s could not run" % name)
            continue
        if name not in recorded:
            messages.append("scenario %s (%s) is not in the baseline: record it with "
                            "scripts/check-regression --update --only %s"
                            % (name, rel(suite[name]), name))
            rows.append((name, "-", "(scenario)", "(none)", plural(len(variants), "variant"), "new"))
            failed += 1
            summaries.append("FAIL  %-24s not in the baseline" % name)
            continue
        base_variants = recorded[name].get("variants") or {}
        srows, compared, drift = [], 0, 0.0
        for v in sorted(set(base_variants) | set(variants)):
            if v not in variants:
                messages.append("%s: variant %s is in the baseline but the scenario no "
                                "longer has it" % (name, v))
                srows.append((name, v, "(variant)", "recorded", "(missing)", "missing"))
                continue
            if v not in base_variants:
                messages.append("%s: variant %s is new: not in the baseline" % (name, v))
                srows.append((name, v, "(variant)", "(none)", "present", "new"))
                continue
            r, c, d = compare_metrics(tol, name, v, base_variants[v], variants[v])
            srows += r
            compared += c
            drift = max(drift, d)
        if srows:
            failed += 1
            rows += srows
            summaries.append("FAIL  %-24s %d of %d values differ from the baseline"
                             % (name, len(srows), compared))
        else:
            passed += 1
            how = "identical to the baseline" if drift == 0 else \
                "within tolerance (max relative drift %.3g)" % drift
            summaries.append("ok    %-24s %s, %d values %s"
                             % (name, plural(len(variants), "variant"), compared, how))
    for s in summaries:
        print(s)
    for n in NOTES:
        print("note: " + n)
    if rows or messages:
        print()
        print("REGRESSION: the metrics differ from %s" % rel(args.baseline))
        for m in messages:
            print("  - " + m)
        if rows:
            print()
            print_table(rows, ("scenario", "variant", "metric", "baseline", "now", "change"))
        print()
        print("If the change is intended, record it: scripts/check-regression --update%s "
              "(and commit %s)." % (baseline_option(args), rel(args.baseline)))
    if suite:
        print("functional: %s in %.1f s" % (plural(len(suite), "scenario"), elapsed))
    return passed, failed, None


# ---------------------------------------------------------------------------------------
# Speed part

def tool_version(cmd):
    try:
        out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             universal_newlines=True, timeout=20).stdout
        return out.strip().splitlines()[0] if out.strip() else None
    except (OSError, subprocess.SubprocessError):
        return None


def compiler_of(migsim):
    """The C++ compiler of the build that holds the binary (from its CMakeCache.txt)."""
    d = os.path.dirname(os.path.realpath(migsim))
    for _ in range(3):
        cache = os.path.join(d, "CMakeCache.txt")
        if os.path.isfile(cache):
            with open(cache, encoding="utf-8", errors="replace") as f:
                for line in f:
                    if line.startswith("CMAKE_CXX_COMPILER:"):
                        return tool_version([line.split("=", 1)[1].strip(), "--version"])
            return None
        d = os.path.dirname(d)
    return None


def callgrind(valgrind, migsim, name, args, tmp):
    out = os.path.join(tmp, name + ".callgrind")
    cmd = [valgrind, "--tool=callgrind", "--callgrind-out-file=" + out, migsim] + list(args)
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           universal_newlines=True)
    except OSError as e:
        return None, 0.0, "cannot run %s: %s" % (valgrind, e)
    elapsed = time.monotonic() - t0
    if p.returncode != 0:
        return None, elapsed, "exited %d under callgrind: %s" % (
            p.returncode, p.stderr.strip()[-2000:])
    total = None
    try:
        with open(out, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("totals:") or (total is None and line.startswith("summary:")):
                    total = int(line.split()[1])
    except (OSError, ValueError, IndexError) as e:
        return None, elapsed, "cannot read callgrind's output %s: %s" % (out, e)
    if total is None:
        return None, elapsed, "no totals: line in callgrind's output"
    return total, elapsed, None


def speed(args, only, matched):
    """Returns (passed, failed, skipped)."""
    doc = load_json(args.speed_baseline, "speed baseline")
    runs = (doc or {}).get("runs") or {}
    if args.no_speed:
        # The suite is still read, so that --only knows the speed runs' names.
        for p in only or []:
            if any(fnmatch.fnmatchcase(k, p) for k in runs):
                matched.add(p)
        print("speed: skipped (--no-speed)")
        return 0, 0, 0
    if doc is None:
        if not args.update:
            print("FAILED speed: no speed baseline %s: record it with "
                  "scripts/check-regression --update" % rel(args.speed_baseline))
            return 0, 1, 0
        runs = {k: {"what": v["what"], "args": v["args"]} for k, v in DEFAULT_SPEED_RUNS.items()}
    selected = sorted(k for k in runs if not only or matches_any(k, only))
    for p in only or []:
        if any(fnmatch.fnmatchcase(k, p) for k in selected):
            matched.add(p)
    if not selected:
        return 0, 0, 0

    valgrind = args.valgrind or shutil.which("valgrind")
    if not valgrind:
        if args.require_speed:
            print("FAILED speed: valgrind is not installed and --require-speed was given "
                  "(apt-get install valgrind)")
            return 0, len(selected), 0
        print("speed: SKIPPED: valgrind not installed (apt-get install valgrind; "
              "--require-speed makes this a failure)")
        return 0, 0, len(selected)

    context = {"valgrind": tool_version([valgrind, "--version"]),
               "compiler": compiler_of(args.migsim), "machine": platform.machine()}
    context = {k: v for k, v in context.items() if v}
    tol = dict(DEFAULT_SPEED_TOLERANCE)
    tol.update((doc or {}).get("tolerance") or {})

    t0 = time.monotonic()
    tmp = tempfile.mkdtemp(prefix="migsim-callgrind-")
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            futures = {k: pool.submit(callgrind, valgrind, args.migsim, k, runs[k]["args"], tmp)
                       for k in selected}
            results = {k: f.result() for k, f in futures.items()}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    elapsed = time.monotonic() - t0

    passed = failed = 0
    if args.update:
        new_runs = dict(runs)
        for k in selected:
            total, secs, err = results[k]
            if err:
                print("FAILED speed %s: %s" % (k, err))
                failed += 1
                continue
            new_runs[k] = dict(runs[k], instructions=total)
            print("recorded  speed %-22s %15s instructions  (%.1f s under callgrind)"
                  % (k, "{:,}".format(total), secs))
            passed += 1
        if failed:
            return passed, failed, 0
        if not only:
            new_runs = {k: v for k, v in new_runs.items() if k in selected}
        new_doc = {"_about": SPEED_ABOUT, "tolerance": tol, "recorded_with": context,
                   "runs": new_runs}
        write_json(args.speed_baseline, new_doc)
        print("updated %s (%d runs)" % (rel(args.speed_baseline), len(new_runs)))
        print("speed: %s in %.1f s (callgrind)" % (plural(len(selected), "run"), elapsed))
        return passed, failed, 0

    recorded_with = (doc or {}).get("recorded_with") or {}
    for key in sorted(set(recorded_with) & set(context)):
        if recorded_with[key] != context[key]:
            print("note: speed baseline recorded with %s %r, measuring with %r: counts may "
                  "differ for that reason alone" % (key, recorded_with[key], context[key]))
    rows = []
    for k in selected:
        total, secs, err = results[k]
        base = runs[k].get("instructions")
        if err:
            print("FAIL  speed %-22s %s" % (k, err))
            failed += 1
            continue
        if not base:
            print("FAIL  speed %-22s %s instructions; not in the baseline: record it with "
                  "scripts/check-regression --update --only %s" % (k, "{:,}".format(total), k))
            failed += 1
            continue
        ratio = total / base
        up = float(runs[k].get("max_increase", tol["max_increase"]))
        down = float(runs[k].get("update_below", tol["update_below"]))
        if ratio > 1 + up:
            verdict, failed = "FAIL", failed + 1
            rows.append((k, "{:,}".format(base), "{:,}".format(total), "%.4f" % ratio,
                         "%+.2f %%" % ((ratio - 1) * 100), "> +%g %%" % (up * 100)))
        else:
            verdict, passed = "ok  ", passed + 1
        print("%s  speed %-22s %15s instructions  baseline %15s  ratio %.4f (%+.2f %%)"
              % (verdict, k, "{:,}".format(total), "{:,}".format(base), ratio,
                 (ratio - 1) * 100))
        if ratio < 1 + down:
            print("      %s is %.1f %% faster than its baseline: record the gain with "
                  "scripts/check-regression --update, so later regressions are measured "
                  "from it" % (k, (1 - ratio) * 100))
    if rows:
        print()
        print("SPEED REGRESSION: more instructions than %s allows" % rel(args.speed_baseline))
        print_table(rows, ("run", "baseline", "now", "ratio", "change", "limit"))
        print()
        print("Profile it: valgrind --tool=callgrind build/migsim ARGS; callgrind_annotate "
              "callgrind.out.PID. If the cost is intended: scripts/check-regression --update.")
    print("speed: %s in %.1f s (callgrind)" % (plural(len(selected), "run"), elapsed))
    return passed, failed, 0


# ---------------------------------------------------------------------------------------

def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="check-regression",
        description="The regression gate: scenario metrics against "
                    "bench/baseline/regression.json, instruction counts under callgrind "
                    "against bench/baseline/speed.json.",
        epilog="Exit codes: 0 passed or updated, 1 regression or failed run, 2 usage.")
    p.add_argument("--update", action="store_true",
                   help="rewrite the baselines from this build (with --only: just those "
                        "entries) and exit 0")
    p.add_argument("--migsim", default=DEFAULT_MIGSIM, metavar="PATH",
                   help="the migsim binary (default: build/migsim)")
    p.add_argument("--baseline", default=DEFAULT_BASELINE, metavar="FILE",
                   help="the metrics baseline (default: bench/baseline/regression.json)")
    p.add_argument("--speed-baseline", default=DEFAULT_SPEED_BASELINE, metavar="FILE",
                   help="the instruction-count baseline (default: bench/baseline/speed.json)")
    p.add_argument("--only", nargs="+", default=[], metavar="NAME",
                   help="only these scenarios (file names without .json; a YAML one's "
                        "with .yaml) and speed runs; "
                        "globs allowed")
    p.add_argument("--scenarios", action="append", metavar="DIR|GLOB|FILE",
                   help="the suite's scenario files (default: scenarios/*.json and "
                        "*.yaml); repeatable")
    p.add_argument("--no-speed", action="store_true", help="skip the speed part")
    p.add_argument("--speed-only", action="store_true", help="skip the functional part")
    p.add_argument("--require-speed", action="store_true",
                   help="fail, rather than skip, when valgrind is missing")
    p.add_argument("--valgrind", metavar="PATH", help="the valgrind binary (default: PATH)")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                   help="runs at once (default: every core; instruction counts do not "
                        "depend on it)")
    args = p.parse_args(argv)
    if args.no_speed and args.speed_only:
        p.error("--no-speed and --speed-only exclude each other")
    if args.no_speed and args.require_speed:
        p.error("--no-speed and --require-speed exclude each other")
    if args.jobs < 1:
        p.error("--jobs must be at least 1")
    for attr in ("migsim", "baseline", "speed_baseline", "valgrind"):
        if getattr(args, attr):
            setattr(args, attr, os.path.abspath(getattr(args, attr)))
    if args.scenarios:
        args.scenarios = [os.path.abspath(s) for s in args.scenarios]
    return args


def main(argv):
    args = parse_args(argv)
    if not (os.path.isfile(args.migsim) and os.access(args.migsim, os.X_OK)):
        raise UsageError("no migsim binary at %s: build it (./scripts/setup.sh) or pass "
                         "--migsim PATH" % args.migsim)
    only = args.only
    matched = set()
    passed = failed = skipped = 0

    if not args.speed_only:
        baseline_doc = load_json(args.baseline, "baseline")
        if baseline_doc is None and not args.update:
            raise UsageError("no baseline %s: record one with scripts/check-regression --update"
                             % args.baseline)
        p_, f_, new = functional(args, baseline_doc, only, matched)
        passed, failed = passed + p_, failed + f_
        if args.update and new is not None:
            tol = dict(DEFAULT_TOLERANCE)
            tol.update((baseline_doc or {}).get("tolerance") or {})
            write_json(args.baseline, {"_about": BASELINE_ABOUT, "tolerance": tol,
                                       "scenarios": new})
            print("updated %s (%d scenarios, %d variants)"
                  % (rel(args.baseline), len(new),
                     sum(len(s["variants"]) for s in new.values())))

    p_, f_, s_ = speed(args, only, matched)
    passed, failed, skipped = passed + p_, failed + f_, skipped + s_

    unmatched = [p for p in only if p not in matched]
    if unmatched:
        raise UsageError("--only %s: no such scenario or speed run" % " ".join(unmatched))
    if passed + failed + skipped == 0:
        raise UsageError("nothing to check")

    tail = ", %d skipped" % skipped if skipped else ""
    print("check-regression: %d passed, %d failed%s" % (passed, failed, tail))
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except UsageError as e:
        print("check-regression: %s" % e, file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)
