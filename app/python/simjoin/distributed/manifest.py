"""The output directory: shards pairs-<partition>.npy and manifest.json, written last. A directory
whose manifest is missing holds no complete result."""
import glob
import json
import os

MANIFEST = "manifest.json"


def prepare(out):
    """Creates `out`, or empties it of a previous run's manifest and shards (the manifest first)."""
    os.makedirs(out, exist_ok=True)
    for path in [os.path.join(out, MANIFEST)] + glob.glob(os.path.join(out, "pairs-*.npy*")):
        if os.path.exists(path):
            os.remove(path)


def write(out, document):
    path = os.path.join(out, MANIFEST)
    temporary = path + ".tmp"
    with open(temporary, "w") as file:
        json.dump(document, file, indent=1)
    os.replace(temporary, path)


def read(out):
    path = os.path.join(out, MANIFEST)
    if not os.path.exists(path):
        raise FileNotFoundError(f"{path}: no manifest; the run that wrote {out} did not finish")
    with open(path) as file:
        return json.load(file)
