#!/usr/bin/env python3
"""`simjoin join` interrupted by SIGINT, SIGTERM and SIGHUP at random moments: every output (pairs as
.npy, .csv or .bin, --neighbors, --stats, --labels-vtp) is afterwards either complete or the file that
was there before, no temporary (*.tmp) is left, and a cancel while the neighbour lists are written
ends the process within 100 ms (plus the slack of a loaded machine, SIMJOIN_SIGNAL_SLACK_MS). The same
for `simjoin sweep --chart --csv` and for simjoin-studio's --export-view and --export-chart, where
the GUI build made them (skipped otherwise).

Usage: test_cli_signals.py PATH/TO/simjoin [TEST_NAME_PART]. Random moments and inputs from a seed (printed;
SIMJOIN_TEST_SEED replays); prints 'N passed, N failed, N skipped' last and exits non-zero on any failure.
"""
import glob
import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np

from cli_runner import run_tests, seed, tests_in

SIMJOIN = sys.argv[1]
SEED = seed()
SLACK_MS = float(os.environ.get("SIMJOIN_SIGNAL_SLACK_MS", "100"))
chance = random.Random(SEED)
tmp = tempfile.mkdtemp(prefix="simjoin-signal-test-")
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def generate(name, n):
    path = f"{tmp}/{name}.npy"
    subprocess.run([SIMJOIN, "generate", "--kind", "uniform", "--n", str(n), "--dims", "2", "--low", "0",
                    "--high", "1", "--seed", str(SEED % 100000), "--out", path], check=True, capture_output=True)
    return path


def outputs(directory, pair_ext):
    """The output options of one run into `directory`, and the files they name."""
    files = {"pairs": f"{directory}/P.{pair_ext}", "offsets": f"{directory}/NB.offsets.npy",
             "ids": f"{directory}/NB.ids.npy", "stats": f"{directory}/S.json", "labels": f"{directory}/L.vtp"}
    options = ["--output", files["pairs"], "--neighbors", f"{directory}/NB", "--stats", files["stats"],
               "--labels-vtp", files["labels"]]
    return options, files


def join_command(points, options):
    return [SIMJOIN, "join", "--input", points, "--eps", "0.01", "--engine", "cpu-grid", *options]


def read(path):
    with open(path, "rb") as f:
        return f.read()


def reference_run(points, pair_ext):
    """The complete outputs of an uninterrupted run, and how long it took."""
    directory = tempfile.mkdtemp(dir=tmp)
    options, files = outputs(directory, pair_ext)
    start = time.monotonic()
    subprocess.run(join_command(points, options), check=True, capture_output=True)
    return {key: read(path) for key, path in files.items()}, time.monotonic() - start


def check_complete(key, content, reference):
    """A complete output: the same bytes as the reference run's, but for the pair list, whose order
    follows the engine's threads (same size, and for NumPy the same sorted pairs)."""
    if key == "stats":
        assert json.loads(content)["pairs"] == json.loads(reference)["pairs"], "statistics differ"
    elif key == "pairs":
        assert len(content) == len(reference), f"pair file of {len(content)} bytes, expected {len(reference)}"
        if content[:6] == b"\x93NUMPY":
            got, expected = (np.load(io.BytesIO(data)) for data in (content, reference))
            assert np.array_equal(np.unique(got, axis=0), np.unique(expected, axis=0)), "pairs differ"
    else:
        assert content == reference, f"{key} differs from the complete file"


def check_outputs(files, references, rc, what, sent):
    # Killed by the signal itself only before the handler is installed, when nothing is written yet.
    killed_early = rc in [-sig for sig in sent]
    assert rc in (0, 130) or killed_early, f"{what}: exit {rc}"
    leftovers = glob.glob(f"{os.path.dirname(files['pairs'])}/.*tmp") + glob.glob(f"{os.path.dirname(files['pairs'])}/*tmp")
    assert not leftovers, f"{what}: temporaries left: {leftovers}"
    complete = 0
    for key, path in files.items():
        content = read(path)
        if content == b"old " + key.encode():
            continue
        check_complete(key, content, references[key])
        complete += 1
    if rc == 0:
        assert complete == len(files), f"{what}: exit 0 but only {complete} outputs complete"
    assert not killed_early or complete == 0, f"{what}: killed by the signal after writing {complete} outputs"
    return complete


def interrupted_run(points, pair_ext, references, delay, signals):
    """Runs over pre-existing files, sends `signals` after `delay` seconds (the later ones 10 ms apart)."""
    directory = tempfile.mkdtemp(dir=tmp)
    options, files = outputs(directory, pair_ext)
    for key, path in files.items():
        with open(path, "wb") as f:
            f.write(b"old " + key.encode())
    process = subprocess.Popen(join_command(points, options), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(delay)
    for k, sig in enumerate(signals):
        if k:
            time.sleep(0.01)
        if process.poll() is None:
            process.send_signal(sig)
    process.communicate(timeout=120)
    what = f"{pair_ext}, {'+'.join(signal.Signals(s).name for s in signals)} after {delay * 1000:.0f} ms"
    complete = check_outputs(files, references, process.returncode, what, signals)
    shutil.rmtree(directory)
    return complete


def test_signals_leave_complete_or_older_files():
    points = generate("small", 60_000)
    completes = []
    for pair_ext in ("npy", "csv", "bin"):
        references, seconds = reference_run(points, pair_ext)
        for k in range(2):
            signals = [chance.choice(SIGNALS)] * (k + 1)  # the second time, another signal during cleanup
            completes.append(interrupted_run(points, pair_ext, references, chance.uniform(0, seconds), signals))
    print(f"  {len(completes)} interrupted runs; complete outputs per run: {completes}")


def test_cancel_while_writing_neighbor_lists_is_prompt():
    """Signals sent at random moments once the neighbour lists' files are open: exit within the bound."""
    points = generate("large", 400_000)  # about 2.5e7 pairs: a CSR phase of a good part of a second
    latencies = []
    for sig in SIGNALS:
        directory = tempfile.mkdtemp(dir=tmp)
        for name in ("NB.offsets.npy", "NB.ids.npy"):
            with open(f"{directory}/{name}", "wb") as f:
                f.write(b"old")
        process = subprocess.Popen(join_command(points, ["--neighbors", f"{directory}/NB", "--show", "0"]),
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while not glob.glob(f"{directory}/.NB.ids.npy.*.tmp") and process.poll() is None:
            time.sleep(0.002)
        time.sleep(chance.uniform(0, 0.3))
        sent = time.monotonic()
        process.send_signal(sig)
        process.wait(timeout=60)
        latency_ms = (time.monotonic() - sent) * 1000
        if process.returncode == 0:
            continue  # finished before the signal
        assert process.returncode == 130, f"{signal.Signals(sig).name}: exit {process.returncode}"
        latencies.append(latency_ms)
        assert latency_ms < 100 + SLACK_MS, f"{signal.Signals(sig).name}: exit {latency_ms:.0f} ms after the signal"
        assert sorted(os.listdir(directory)) == ["NB.ids.npy", "NB.offsets.npy"], os.listdir(directory)
        assert read(f"{directory}/NB.ids.npy") == b"old"
        shutil.rmtree(directory)
    print(f"  signal to exit while writing neighbour lists: {', '.join(f'{l:.0f}' for l in latencies)} ms")


def test_signal_while_writing_pairs_exits_130_keeping_the_old_file():
    """Signals sent once the pair file is being finished and synced (a CSV of about 50 MB): exit 130
    within the bound, the older file kept and no temporary left; a run whose file was complete before
    the signal came exits 0 with it."""
    points = generate("writing", 150_000)
    latencies, finished = [], 0
    env = dict(os.environ, SIMJOIN_PHASE_TRACE="1")
    for sig in SIGNALS:
        directory = tempfile.mkdtemp(dir=tmp)
        target = f"{directory}/P.csv"
        with open(target, "wb") as f:
            f.write(b"old")
        process = subprocess.Popen(join_command(points, ["--output", target, "--show", "0"]),
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        for line in process.stderr:
            if line.startswith(b"phase writing pairs"):
                break
        time.sleep(chance.uniform(0, 0.005))
        sent = time.monotonic()
        process.send_signal(sig)
        process.communicate(timeout=60)
        latency_ms = (time.monotonic() - sent) * 1000
        assert not [name for name in os.listdir(directory) if name.endswith("tmp")], os.listdir(directory)
        if process.returncode == 0:
            finished += 1
            assert read(target) != b"old"
            continue
        assert process.returncode == 130, f"{signal.Signals(sig).name}: exit {process.returncode}"
        assert read(target) == b"old", f"{signal.Signals(sig).name}: the older pair file was replaced"
        assert latency_ms < 100 + SLACK_MS, f"{signal.Signals(sig).name}: exit {latency_ms:.0f} ms after the signal"
        latencies.append(latency_ms)
        shutil.rmtree(directory)
    print(f"  signal to exit while writing pairs: {', '.join(f'{l:.0f}' for l in latencies)} ms; "
          f"{finished} runs complete before the signal")
    # Syncing some 50 MB takes tens of milliseconds at least: one signal in three must come in time.
    assert latencies, "every run had renamed its pair file before the signal: none was interrupted"


def sibling(program):
    path = os.path.join(os.path.dirname(os.path.abspath(SIMJOIN)), program)
    return path if os.access(path, os.X_OK) else None


def signal_over_old_files(command, files, delay, sig, env=None):
    """Runs `command` over files holding b"old", signals it after `delay` s; returns (exit code, {file: its
    bytes}) and fails when a temporary is left."""
    for path in files:
        with open(path, "wb") as f:
            f.write(b"old")
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    time.sleep(delay)
    if process.poll() is None:
        process.send_signal(sig)
    process.wait(timeout=120)
    directory = os.path.dirname(files[0])
    leftovers = [name for name in os.listdir(directory) if name.endswith("tmp")]
    what = f"{os.path.basename(command[0])} {signal.Signals(sig).name} after {delay * 1000:.0f} ms"
    assert not leftovers, f"{what}: temporaries left: {leftovers}"
    assert process.returncode in (0, 130, -sig), f"{what}: exit {process.returncode}"
    contents = {path: read(path) for path in files}
    if process.returncode != 0:
        assert process.returncode == 130 or all(c == b"old" for c in contents.values()), f"{what}: killed after writing"
    else:
        assert all(c != b"old" for c in contents.values()), f"{what}: exit 0 but an output not written"
    return process.returncode, contents


def complete_image(content):
    """A whole SVG, PNG or PDF, or the older file."""
    return (content == b"old" or content.rstrip().endswith(b"</svg>") or content.endswith(b"IEND\xaeB`\x82")
            or content.rstrip().endswith(b"%%EOF"))


def test_signals_during_sweep_leave_complete_or_older_files():
    if not sibling("simjoin-sweep"):
        print("  skipped: simjoin-sweep was not built (no GUI build)")
        return
    points = generate("sweep", 40_000)
    directory = tempfile.mkdtemp(dir=tmp)
    for k, ext in enumerate(("svg", "png", "pdf", "svg", "png", "pdf")):
        files = [f"{directory}/C.{ext}", f"{directory}/C.csv"]
        command = [SIMJOIN, "sweep", "--input", points, "--engines", "cpu-grid,cpu-kmeans", "--eps", "0.005,0.01,0.02",
                   "--k", "4", "--repeat", "1", "--warmup", "0", "--chart", files[0], "--csv", files[1], "--quiet"]
        rc, contents = signal_over_old_files(command, files, chance.uniform(0, 1.5), SIGNALS[k % 3])
        assert complete_image(contents[files[0]]), f"sweep {ext}: chart cut short"
        csv = contents[files[1]]
        assert csv == b"old" or csv.decode().count("\n") == 1 + 2 * 3, f"sweep: CSV cut short: {csv[:200]!r}"


def test_signals_during_studio_exports_leave_complete_or_older_files():
    studio = sibling("simjoin-studio")
    if not studio:
        print("  skipped: simjoin-studio was not built (no GUI build)")
        return
    points = generate("studio", 100_000)
    directory = tempfile.mkdtemp(dir=tmp)
    env = dict(os.environ, XDG_CONFIG_HOME=tempfile.mkdtemp(dir=tmp), QT_QPA_PLATFORM="offscreen")
    for k, ext in enumerate(("png", "svg", "pdf", "png")):
        files = [f"{directory}/V.{ext}", f"{directory}/S.{ext}"]
        command = [studio, points, "--engine", "cpu-grid", "--eps", "0.01", "--run", "--sweep-eps", "0.005,0.02,3",
                   "--sweep-engines", "cpu-grid", "--export-view", files[0], "--export-chart", files[1], "--quit"]
        _, contents = signal_over_old_files(command, files, chance.uniform(0.5, 4), SIGNALS[k % 3], env)
        for path, content in contents.items():
            assert complete_image(content), f"studio {os.path.basename(path)}: image cut short"


def main():
    print(f"seed {SEED} (SIMJOIN_TEST_SEED={SEED} replays)")
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    run_tests([value for name, value in tests_in(globals()).items() if only in name],
              before_summary=lambda: shutil.rmtree(tmp, ignore_errors=True))


if __name__ == "__main__":
    main()
