#!/usr/bin/env python3
"""Hostile and extreme input through the programs as a user runs them: special files refused at once,
text read by one rule, outputs checked before the join, a full disk on the labelled VTP, and data at
the ends of the float64 range, which `simjoin info` and simjoin-studio (where built) handle with a
finite, positive eps and draw without a mark at NaN.

Usage: test_cli_hostile.py PATH/TO/simjoin. Fresh random inputs each run (seed printed; SIMJOIN_TEST_SEED
replays); prints 'N passed, N failed, N skipped' last and exits 1 on any failure. About 5 s.
"""
import functools
import os
import socket
import subprocess
import sys
import tempfile
import time

import numpy as np

from cli_runner import run, run_tests, seed, tests_in

SIMJOIN = sys.argv[1]
SEED = seed()
rng = np.random.default_rng(SEED)
tmp = tempfile.mkdtemp(prefix="simjoin-hostile-test-")


simjoin = functools.partial(run, SIMJOIN, timeout=60)


def test_special_files_are_refused_at_once():
    """A FIFO would block the open, /dev/zero never ends: both, and a socket, exit 3 within a second."""
    fifo = f"{tmp}/fifo.csv"
    os.mkfifo(fifo)
    zero = f"{tmp}/zero.csv"
    os.symlink("/dev/zero", zero)
    sock_path = f"{tmp}/sock.csv"
    server = socket.socket(socket.AF_UNIX)
    server.bind(sock_path)
    for path, kind in ((fifo, "FIFO"), (zero, "character device"), (sock_path, "socket")):
        started = time.monotonic()
        err = simjoin("info", path, expect=3, timeout=10).stderr
        assert time.monotonic() - started < 1.0, f"{path}: refused only after {time.monotonic() - started:.1f} s"
        assert path in err and kind in err, err
    server.close()


def test_text_has_one_rule():
    points = rng.uniform(-10, 10, size=(40, 3))
    rows = ["x,y,z"] + [",".join(repr(v) for v in p) for p in points]
    for ending in ("\n", "\r\n", "\r"):
        path = f"{tmp}/rows.csv"
        with open(path, "w", newline="") as f:
            f.write(ending.join(rows) + ending)
        out = simjoin("info", path).stdout
        assert "points: 40\n" in out and "dims:   3\n" in out, (repr(ending), out)
    # A broken number in the first data row is refused as in any other row, naming line and column.
    for row in (1, 6):
        broken = list(rows)
        broken[row] = broken[row].rsplit(",", 1)[0] + ",0.51\u2026x"
        path = f"{tmp}/broken.csv"
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(broken) + "\n")
        err = simjoin("info", path, expect=3).stderr
        assert f"line {row + 1}, column 3 (z)" in err, err
    # A text column is skipped with one warning naming the file once.
    path = f"{tmp}/labels.csv"
    with open(path, "w") as f:
        f.write("name,x\nalpha,1\nbeta,2\n")
    err = simjoin("info", path).stderr
    assert err.count(path) == 1 and "column 1 (name)" in err, err


def test_outputs_are_checked_before_the_join():
    np.save(f"{tmp}/few.npy", rng.uniform(size=(3000, 2)))
    env = dict(os.environ, SIMJOIN_PHASE_TRACE="1")
    for option, value in (("--stats", "s.json"), ("--neighbors", "nb"), ("--labels-vtp", "l.vtp")):
        target = f"{tmp}/no-such-dir/{value}"
        err = simjoin("join", "--input", f"{tmp}/few.npy", "--eps", 0.05, option, target, expect=3, env=env).stderr
        assert "no-such-dir" in err and "phase" not in err, f"{option}: checked only after the join\n{err}"
    assert not [name for name in os.listdir(tmp) if name.endswith(".tmp")]


def test_full_disk_on_labels_vtp_exits_4_with_one_line():
    if not os.path.exists("/dev/full"):
        return
    np.save(f"{tmp}/few.npy", rng.uniform(size=(3000, 2)))
    os.symlink("/dev/full", f"{tmp}/full.vtp")
    err = simjoin("join", "--input", f"{tmp}/few.npy", "--eps", 0.05, "--labels-vtp", f"{tmp}/full.vtp",
                  expect=4).stderr
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "No space left" in lines[0] and "\x1b" not in err, err


def extreme_files():
    """Uniform points at 1e308 and at subnormal scale (about 1e-310), as .npy files."""
    files = {}
    for name, scale in (("huge", 1e308), ("subnormal", 1e-310)):
        path = f"{tmp}/{name}.npy"
        np.save(path, rng.uniform(-1, 1, size=(500, 3)) * scale)
        files[name] = path
    return files


def test_info_suggests_a_finite_positive_eps_at_the_ends_of_float64():
    for name, path in extreme_files().items():
        out = simjoin("info", path).stdout
        assert "nan" not in out and "inf" not in out, f"{name}:\n{out}"
        eps = float(out.split("eps:")[1].split()[0])
        assert 0 < eps < float("inf"), f"{name}: eps {eps}"
        # The frame's engines find the oracle's pairs there too (its origin once overflowed near 1e308).
        counts = {engine: simjoin("join", "--input", path, "--eps", eps, "--engine", engine, "--count-only").stdout
                  .split("pairs:")[1].split()[0] for engine in ("cpu-bruteforce", "cpu-grid", "cpu-kmeans", "auto")}
        assert len(set(counts.values())) == 1 and counts["auto"] != "0", f"{name}: {counts}"


def test_studio_opens_extreme_files_and_quits():
    studio = os.path.join(os.path.dirname(os.path.abspath(SIMJOIN)), "simjoin-studio")
    if not os.access(studio, os.X_OK):
        return  # a build without the GUI
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    for name, path in extreme_files().items():
        result = subprocess.run([studio, path, "--quit"], capture_output=True, text=True, timeout=120, env=env)
        assert result.returncode == 0, f"{name}: exit {result.returncode}\n{result.stdout}\n{result.stderr}"
        # Drawn, picked (the view zooms to eps about the point) and exported: no mark at NaN, which
        # QPainter reports once a point ("QPainterPath::arcTo: Adding arc where a parameter is NaN").
        figure = f"{tmp}/{name}-view.png"
        result = subprocess.run([studio, path, "--run", "--pick", "3", "--export-view", figure, "--quit"],
                                capture_output=True, text=True, timeout=120, env=env)
        painter = [line for line in result.stderr.splitlines() if "QPainter" in line or "NaN" in line]
        assert result.returncode == 0 and not painter and os.path.getsize(figure) > 0, (
            f"{name}: exit {result.returncode}\n" + "\n".join(sorted(set(painter))))


def main():
    print(f"test_cli_hostile.py: seed {SEED} (SIMJOIN_TEST_SEED={SEED} replays it)")
    run_tests([test for _, test in sorted(tests_in(globals()).items())])


if __name__ == "__main__":
    main()
