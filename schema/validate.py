#!/usr/bin/env python3
"""Validates scenario, sweep and plan files against schema/*.schema.json (scripts/check-schemas
runs it). Without arguments: every such file under schema_files.FOLDERS must validate, and
every file of tests/schema/invalid/ must not (each names what makes it invalid in its
"description"). With arguments: those files must validate.

Works with Debian 12's python3-jsonschema (4.10) and later ones (4.18+, `referencing`).
"""

import json
import os
import sys

import jsonschema

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import schema_files  # noqa: E402

INVALID_DIR = os.path.join(schema_files.ROOT, "tests", "schema", "invalid")


def load_schemas():
    schemas = {}
    for kind in schema_files.KINDS:
        with open(schema_files.schema_path(kind), encoding="utf-8") as f:
            schemas[kind] = json.load(f)
    return schemas


def validators(schemas):
    """kind -> a Draft 2020-12 validator that resolves the schemas' references to each
    other (the sweep's inline scenario) from these files, never from the network."""
    cls = jsonschema.Draft202012Validator
    try:
        from referencing import Registry, Resource  # jsonschema >= 4.18
        registry = Registry().with_resources(
            (s["$id"], Resource.from_contents(s)) for s in schemas.values())
        return {k: cls(s, registry=registry) for k, s in schemas.items()}
    except ImportError:
        store = {s["$id"]: s for s in schemas.values()}
        return {k: cls(s, resolver=jsonschema.RefResolver.from_schema(s, store=store))
                for k, s in schemas.items()}


def errors_of(validator, doc):
    """The errors, each "<JSON pointer>: <message>", the deepest first."""
    out = []
    for e in sorted(validator.iter_errors(doc), key=lambda e: -len(e.absolute_path)):
        pointer = "".join("/" + str(p).replace("~", "~0").replace("/", "~1")
                          for p in e.absolute_path)
        out.append(f"{pointer or '/'}: {e.message[:300]}")
    return out


def check(rel, kind, doc, checkers):
    errors = errors_of(checkers[kind], doc)
    for line in errors[:5]:
        print(f"{rel}:{line}")
    return not errors


def main(argv):
    checkers = validators(load_schemas())
    ok = True
    if argv:
        for path in argv:
            rel = os.path.relpath(os.path.abspath(path), schema_files.ROOT)
            kind, doc = schema_files.classify(rel)
            if kind is None:
                print(f"{path}: not a scenario, sweep or plan file")
                ok = False
            else:
                ok = check(path, kind, doc, checkers) and ok
        return 0 if ok else 1
    counts = {k: 0 for k in schema_files.KINDS}
    skipped_yaml = 0
    for rel in schema_files.candidates():
        kind, doc = schema_files.classify(rel)
        if doc is None and rel.endswith(schema_files.YAML_SUFFIXES):
            skipped_yaml += 1
        if kind is None:
            continue
        counts[kind] += 1
        ok = check(rel, kind, doc, checkers) and ok
    rejected = 0
    for name in sorted(os.listdir(INVALID_DIR)) if os.path.isdir(INVALID_DIR) else []:
        rel = os.path.relpath(os.path.join(INVALID_DIR, name), schema_files.ROOT)
        kind, doc = schema_files.classify(rel)
        if kind is None or not errors_of(checkers[kind], doc):
            print(f"{rel}: an invalid example the schema accepts")
            ok = False
        else:
            rejected += 1
    summary = ", ".join(f"{n} {k} files" for k, n in counts.items())
    print(f"check-schemas: {summary} {'valid' if ok else 'checked: NOT all valid'}; "
          f"{rejected} invalid examples rejected"
          + (f"; {skipped_yaml} YAML files skipped (no python3-yaml)" if skipped_yaml else ""))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
