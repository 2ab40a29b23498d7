#!/usr/bin/env python3
"""The schema (schema/*.schema.json) and the loaders agree: on every shipped scenario, sweep
and plan file (scenarios/, bench/, policies/plugin/example/), on the invalid examples of
tests/schema/invalid/, and on mutations of each shipped JSON file: an unknown member added to
every object, every scalar given another type (a number or a string made a boolean, a boolean
a string), every top-level member removed. Each document goes through the loader (`migsim
validate`, which checks a sweep or plan file as `migsim sweep` and `migsim plan` do, without
running it) and through the schema; a document one accepts and the other refuses is a
disagreement.

    schema_agreement.py MIGSIM_BINARY

Exit 0: they agree on all; 1: disagreements (listed); 77: skipped, python3-jsonschema is
missing (CTest reports the test skipped). A shipped file the loader itself refuses here (the
example plugin's scenario, when the plugin is not built) is left out, and said so.

What the schema leaves to the loader, so not mutated (KNOWN_OPEN): the members of a variant's
patch, of a plan's configurations and patches (JSON Merge Patches: partial documents, checked
once merged), of a sweep's axes and points (values for pointers into the scenario), a
policy's params (each policy declares its own), the MIG geometry of a scenario's own GPU
models (the catalog format), and a manifest overlay's per-object params.
"""

import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "schema"))

try:
    import jsonschema  # noqa: F401
except ImportError:
    print("python3-jsonschema is not installed: skipped")
    sys.exit(77)

import schema_files  # noqa: E402
import validate  # noqa: E402

KNOWN_OPEN = [re.compile(p) for p in (
    r"^/variants/[^/]+/.",
    r"^/configurations/[^/]+/.", r"^/workload_patches/[^/]+/.", r"^/scenario_patches/[^/]+/.",
    r"^/axes/[^/]+/.", r"^/points/[0-9]+/.",
    r"(^|/)policy/params/.",
    r"(^|/)cluster/gpu_models/[^/]+/mig/.",
    r"(^|/)manifest_overlay/objects/[^/]+/params/.",
)]
UNKNOWN = "zz_unknown"
# The loader's messages for a name that must match another part of the document (a job class,
# a priority class, a configuration, a pool): checks no JSON Schema can make. A mutation the
# loader refuses only for one of these is counted apart, not as a disagreement; so is a
# top-level member removed that the loader misses for another part's sake, not as required.
CROSS_REFERENCE = re.compile(r"unknown (?!field )[a-zA-Z ]+ '[^']*' \((valid|none is defined)"
                             r"|needs horizon_s|no workload '|no [a-zA-Z ]+ named '")
TREES = ("scenarios", "bench", "policies/plugin/example", "tests/schema", "schema")


def is_open(pointer):
    return any(p.search(pointer) for p in KNOWN_OPEN)


def token(key):
    return str(key).replace("~", "~0").replace("/", "~1")


def mutators(doc):
    """(description, path, change) for each mutation of `doc`: `path` the keys from the root
    to the value changed, `change` what apply() does there. One walk of the document."""
    out = []

    def walk(value, pointer, path):
        if path and not is_open(pointer) and value is not None:
            # A container becomes a number; a number or a string a boolean; a boolean a string.
            other = 7 if isinstance(value, (dict, list)) else "x" if isinstance(value, bool) \
                else True
            out.append((f"{pointer}: {json.dumps(value)[:40]} made {json.dumps(other)}", path,
                        ("set", other)))
        if isinstance(value, dict):
            if not is_open(pointer + "/" + UNKNOWN):
                out.append((f"{pointer or '/'}: unknown member '{UNKNOWN}' added", path,
                            ("add",)))
            for key in list(value):
                walk(value[key], pointer + "/" + token(key), path + (key,))
        elif isinstance(value, list):
            for i, element in enumerate(value):
                walk(element, f"{pointer}/{i}", path + (i,))

    walk(doc, "", ())
    if isinstance(doc, dict):
        for key in list(doc):
            out.append((f"/{token(key)}: removed", (key,), ("remove",)))
    return out


def apply(doc, path, change):
    """Makes one of mutators(doc)'s mutations in `doc` (or in an equal copy), in place."""
    if change[0] == "add":
        for key in path:
            doc = doc[key]
        doc[UNKNOWN] = {UNKNOWN: []}
        return
    for key in path[:-1]:
        doc = doc[key]
    if change[0] == "set":
        doc[path[-1]] = change[1]
    else:
        del doc[path[-1]]


def property_names(schema, names):
    """Every name the schema gives a "properties" entry, anywhere in it."""
    if isinstance(schema, dict):
        names.update(schema.get("properties", {}) if isinstance(schema.get("properties"), dict)
                     else {})
        for value in schema.values():
            property_names(value, names)
    elif isinstance(schema, list):
        for value in schema:
            property_names(value, names)
    return names


def shape(what, known):
    """A mutation's description with the names the user chose (pools, workloads, array
    indices) made '*': mutations of the same shape test the same part of the schema."""
    pointer, _, rest = what.partition(": ")
    tokens = ["" if t == "" else t if t in known else "*" for t in pointer.split("/")]
    # The value's text goes too (a container's holds spaces: '{"a": 1} made 7').
    return "/".join(tokens) + ": " + ("made " + rest.rpartition(" made ")[2]
                                      if " made " in rest else rest)


def mutations(doc, seen, known):
    """(description, mutated copy of `doc`) for each mutation of a top-level member, and for
    each deeper one whose shape() is not in `seen` (which it adds to)."""
    result = []
    text = json.dumps(doc)  # each copy is parsed from it: faster than copy.deepcopy
    for what, path, change in mutators(doc):
        top = what.startswith("/: ") or what.count("/") == 1 and " removed" in what \
            or re.match(r"^/[^/ ]+: ", what)
        key = shape(what, known)
        if not top:
            if key in seen:
                continue
            seen.add(key)
        clone = json.loads(text)
        apply(clone, path, change)
        result.append((what, clone))
    return result


def loader_accepts(migsim, kind, path):
    """(accepted, message) from the loader: `migsim validate`, which checks a sweep or plan
    file as `migsim sweep` and `migsim plan` do before they run anything. An exit code other
    than 0 and 2, or a document validate takes for another kind than the schema's, is a
    failure."""
    cmd = [migsim, "validate", path, "--json"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode not in (0, 2):
        raise RuntimeError(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr[-500:]}")
    if p.returncode == 0 and json.loads(p.stdout).get("kind", "scenario") != kind:
        raise RuntimeError(f"{' '.join(cmd)} took a {kind} file for another kind: {p.stdout[:300]}")
    return p.returncode == 0, p.stderr.strip().splitlines()[-1:] or [""]


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    migsim = os.path.abspath(sys.argv[1])
    schemas = validate.load_schemas()
    checkers = validate.validators(schemas)
    known = property_names(schemas, set())
    seen = set()
    scratch = tempfile.mkdtemp(prefix="migsim-schema-agreement-")
    try:
        for tree in TREES:
            shutil.copytree(os.path.join(ROOT, tree), os.path.join(scratch, tree),
                            ignore=shutil.ignore_patterns("build", "*.so"), symlinks=True)
        cases = []  # (kind, label, path to write, document, expected-by-construction or None)
        shipped = [rel for rel in schema_files.candidates()]
        invalid = sorted(os.path.relpath(os.path.join(validate.INVALID_DIR, n), ROOT)
                         for n in os.listdir(validate.INVALID_DIR))
        left_out = []
        # Smallest first: each deeper mutation's shape is tried on the smallest file that has
        # it (checking a large benchmark scenario against the schema takes a tenth of a second).
        by_size = sorted(shipped, key=lambda rel: (os.path.getsize(os.path.join(ROOT, rel)), rel))
        for rel in by_size + invalid:
            kind, doc = schema_files.classify(rel)
            if kind is None:
                continue
            path = os.path.join(scratch, rel)
            accepted, message = loader_accepts(migsim, kind, path)
            if rel in shipped and not accepted:
                left_out.append(f"{rel}: {message[0]}")
                continue
            cases.append((kind, rel, None, doc, accepted))
            if rel in invalid or not rel.endswith(".json"):
                continue
            for i, (what, mutated) in enumerate(mutations(doc, seen, known)):
                target = os.path.join(os.path.dirname(path), f".mutation-{i}-" + os.path.basename(rel))
                cases.append((kind, f"{rel} {what}", target, mutated, None))

        def judge(case):
            kind, label, target, doc, loader_ok = case
            if target is not None:
                with open(target, "w", encoding="utf-8") as f:
                    json.dump(doc, f)
                loader_ok, message = loader_accepts(migsim, kind, target)
                os.remove(target)
            else:
                message = [""]
            # The first error decides; all of them (slow on a large refused document) are
            # listed only for a disagreement.
            schema_ok = checkers[kind].is_valid(doc)
            schema_errors = [] if schema_ok == loader_ok else validate.errors_of(checkers[kind], doc)
            return label, loader_ok, schema_ok, message, schema_errors[:1]

        disagreements = []
        cross_references = []
        rejected = 0
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            for label, loader_ok, schema_ok, message, schema_error in pool.map(judge, cases):
                rejected += not loader_ok
                removed = re.match(r"^\S+ /([^/ ]+): removed$", label)
                if loader_ok != schema_ok and not loader_ok and (
                        CROSS_REFERENCE.search(message[0]) or removed and
                        f"missing required field '{removed.group(1)}'" not in message[0]):
                    # A member removed that another part of the document needed (the
                    # manifests their overlay, a queue_name its kueue section).
                    cross_references.append(f"{label}: {message[0][:200]}")
                elif loader_ok != schema_ok:
                    disagreements.append(
                        f"{label}: loader {'accepts' if loader_ok else 'refuses'} "
                        f"({message[0][:200]}), schema {'accepts' if schema_ok else 'refuses'} "
                        f"({(schema_error or [''])[0][:200]})")
        for line in left_out:
            print("left out (the loader refuses the shipped file here): " + line)
        for line in disagreements:
            print("DISAGREE " + line)
        for line in cross_references:
            print("cross-reference (the loader's to check): " + line)
        print(f"schema agreement: {len(cases)} documents ({rejected} refused by the loader), "
              f"{len(cross_references)} refused for a cross-reference only, "
              f"{len(disagreements)} disagreements")
        return 1 if disagreements else 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
