"""The output directory: this run's shards pairs-<run>-<partition>.npy and manifest.json, written last.
A directory whose manifest is missing holds no complete result. Only files a manifest lists, or that
carry this run's id, are ever removed: any other file in the directory is the user's."""
import glob
import json
import os
import uuid

from .errors import OutputError

MANIFEST = "manifest.json"


def new_run_id():
    return uuid.uuid4().hex[:12]


def shard_name(run, partition):
    return f"pairs-{run}-{partition}.npy"


def running_marker(out, run):
    """Present while the run may write shards: a task writes its shard only while it exists."""
    return os.path.join(out, f".simjoin-run-{run}")


def prepare(out, run):
    """Creates `out`, or removes from it the previous run's manifest and the shards that manifest
    lists (the manifest first), nothing else; then marks this run as writing there."""
    if os.path.exists(out) and not os.path.isdir(out):
        raise OutputError(f"{out}: is a file, not a directory for the shards and manifest.json")
    try:
        os.makedirs(out, exist_ok=True)
        previous = _listed_shards(out)
        for path in [os.path.join(out, MANIFEST)] + previous:
            if os.path.lexists(path):
                os.remove(path)
        if run is not None:
            open(running_marker(out, run), "w").close()
    except OSError as error:
        raise OutputError(f"{out}: cannot be written ({error.strerror or error})") from None


def _listed_shards(out):
    """The shards the manifest in `out` lists, as paths inside `out` (a listed name that would lead
    outside it is ignored)."""
    path = os.path.join(out, MANIFEST)
    try:
        with open(path) as file:
            document = json.load(file)
        names = [shard.get("shard") for shard in document.get("shards", [])]
    except (OSError, ValueError, AttributeError, TypeError):
        return []
    return [os.path.join(out, name) for name in names
            if isinstance(name, str) and name == os.path.basename(name) and name.startswith("pairs-")]


def remove_run(out, run):
    """Everything this run wrote or was writing: its marker, shards and their temporaries."""
    for path in [running_marker(out, run)] + glob.glob(os.path.join(glob.escape(str(out)), f"pairs-{run}-*.npy*")):
        try:
            os.remove(path)
        except FileNotFoundError:
            pass


def finish(out, run):
    """The run wrote all its shards: no task may write any more."""
    try:
        os.remove(running_marker(out, run))
    except FileNotFoundError:
        pass


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
