"""Which files of the repository are scenario, sweep and plan files, and their schemas.

Shared by scripts/check-schemas (validates them) and schema/add-references (writes their
"$schema" members). A file's own "$schema" decides its kind; a file without one is
recognised by its members, so that a file that lost its reference is still checked.
"""

import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMA_DIR = os.path.join(ROOT, "schema")
KINDS = ("scenario", "sweep", "plan")
# Folders whose scenario, sweep and plan files are checked (and carry "$schema").
FOLDERS = ("scenarios", "bench", "policies/plugin/example")
# Scenario files that are `migsim import`'s output, compared byte for byte with what the
# import writes (tests/sim/io/k8s/snapshot_import_test.cc): checked, but not given
# "$schema", which the import does not write.
IMPORT_OUTPUTS = ("scenarios/snapshot/scenario.json", "scenarios/snapshot/gfd/scenario.json")
YAML_SUFFIXES = (".yaml", ".yml")


def schema_path(kind):
    return os.path.join(SCHEMA_DIR, kind + ".schema.json")


def kind_by_reference(reference):
    """The kind a "$schema" value names ("../schema/sweep.schema.json" -> "sweep")."""
    base = os.path.basename(str(reference))
    for kind in KINDS:
        if base == kind + ".schema.json":
            return kind
    return None


def kind_by_members(doc):
    """scenario, sweep, plan, or None for any other JSON (manifests, traces, baselines)."""
    if not isinstance(doc, dict) or "apiVersion" in doc or "kind" in doc:
        return None
    if "scenario" in doc and "configurations" in doc:
        return "plan"
    if "scenario" in doc and ("axes" in doc or "points" in doc):
        return "sweep"
    if "name" in doc and ("cluster" in doc or "manifests" in doc):
        return "scenario"
    return None


def load(path):
    """The document of a JSON or YAML file (YAML: the first document; None when PyYAML
    is missing, so that YAML is skipped rather than misread)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if path.endswith(YAML_SUFFIXES):
        try:
            import yaml  # python3-yaml
        except ImportError:
            return None
        docs = list(yaml.safe_load_all(text))
        return docs[0] if docs else None
    return json.loads(text)


def candidates():
    """Every JSON and YAML file under FOLDERS, relative to ROOT, sorted."""
    out = []
    for folder in FOLDERS:
        for dirpath, _, names in os.walk(os.path.join(ROOT, folder)):
            for name in names:
                if name.endswith(".json") or name.endswith(YAML_SUFFIXES):
                    out.append(os.path.relpath(os.path.join(dirpath, name), ROOT))
    return sorted(out)


def classify(rel):
    """(kind or None, document) of the file at `rel` (relative to ROOT)."""
    doc = load(os.path.join(ROOT, rel))
    if isinstance(doc, dict) and "$schema" in doc:
        kind = kind_by_reference(doc["$schema"])
        if kind:
            return kind, doc
    return kind_by_members(doc), doc


def reference_from(rel, kind):
    """The relative "$schema" path from the file at `rel` to its kind's schema."""
    return os.path.relpath(schema_path(kind), os.path.dirname(os.path.join(ROOT, rel)))
