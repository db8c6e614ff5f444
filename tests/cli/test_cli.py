#!/usr/bin/env python3
"""End-to-end tests of the `simjoin` command line against an independent NumPy computation.

Usage: test_cli.py PATH/TO/simjoin. Fresh random inputs each run (seed printed); prints
'N passed, N failed' last and exits non-zero on any failure.
"""
import json
import os
import random
import subprocess
import sys
import tempfile
import traceback

import numpy as np

SIMJOIN = sys.argv[1]
SEED = int(os.environ.get("SIMJOIN_TEST_SEED", random.SystemRandom().randrange(2**31)))
rng = np.random.default_rng(SEED)
tmp = tempfile.mkdtemp(prefix="simjoin-cli-test-")


def simjoin(*args, expect=0):
    result = subprocess.run([SIMJOIN, *map(str, args)], capture_output=True, text=True, timeout=300)
    assert result.returncode == expect, (
        f"simjoin {' '.join(map(str, args))}: exit {result.returncode}, expected {expect}\n"
        f"{result.stdout}\n{result.stderr}")
    return result


def numpy_pairs(a, b, eps):
    """Pairs within eps in float64 (self-join when b is None: i < j)."""
    a64 = a.astype(np.float64)
    b64 = a64 if b is None else b.astype(np.float64)
    d2 = ((a64[:, None, :] - b64[None, :, :]) ** 2).sum(axis=2)
    hit = d2 <= eps * eps
    if b is None:
        hit = np.triu(hit, k=1)
    i, j = np.nonzero(hit)
    return set(zip(i.tolist(), j.tolist()))


def degrees(pairs, n):
    """Neighbours of each of n points in a self-join's pairs."""
    degree = np.zeros(n, dtype=np.int64)
    for i, j in pairs:
        degree[i] += 1
        degree[j] += 1
    return degree


def read_pairs(path):
    pairs = np.load(path)
    assert pairs.ndim == 2 and pairs.shape[1] == 2, pairs.shape
    return set(map(tuple, pairs.tolist()))


def test_join_matches_numpy_self_and_ab():
    for d in (1, 2, 3, 8, 17, 64):
        a = rng.normal(size=(600, d)).astype(np.float32)
        b = rng.normal(size=(400, d)).astype(np.float32)
        eps = float(np.sqrt(2 * d) * 0.8)  # some pairs in every dimension: distances ~ sqrt(2d)
        np.save(f"{tmp}/a.npy", a)
        np.save(f"{tmp}/b.npy", b)
        simjoin("join", "--input", f"{tmp}/a.npy", "--eps", eps, "--engine", "cpu-bruteforce",
                "--output", f"{tmp}/self.npy")
        expected = numpy_pairs(a, None, eps)
        assert len(expected) > 0
        assert read_pairs(f"{tmp}/self.npy") == expected, f"self-join differs at d={d}"
        simjoin("join", "--input", f"{tmp}/a.npy", "--input-b", f"{tmp}/b.npy", "--eps", eps,
                "--engine", "cpu-bruteforce", "--output", f"{tmp}/ab.npy")
        assert read_pairs(f"{tmp}/ab.npy") == numpy_pairs(a, b, eps), f"A-join-B differs at d={d}"


def test_output_formats_neighbors_and_stats_agree():
    a = rng.uniform(size=(800, 3)).astype(np.float32)
    np.savetxt(f"{tmp}/a.csv", a, delimiter=",", header="x,y,z", comments="")
    eps = 0.1
    expected = numpy_pairs(a, None, eps)
    simjoin("join", "--input", f"{tmp}/a.csv", "--eps", eps, "--engine", "cpu-bruteforce",
            "--output", f"{tmp}/p.csv", "--neighbors", f"{tmp}/nb", "--stats", f"{tmp}/s.json")
    rows = np.loadtxt(f"{tmp}/p.csv", delimiter=",", skiprows=1, dtype=np.int64, ndmin=2)
    assert set(map(tuple, rows.tolist())) == expected
    offsets, ids = np.load(f"{tmp}/nb.offsets.npy"), np.load(f"{tmp}/nb.ids.npy")
    assert len(offsets) == len(a) + 1 and offsets[-1] == 2 * len(expected)
    for i in range(len(a)):
        neighbours = set(ids[offsets[i]:offsets[i + 1]].tolist())
        assert neighbours == {j for (p, j) in expected if p == i} | {p for (p, j) in expected if j == i}
    stats = json.load(open(f"{tmp}/s.json"))
    for key in ("engine", "device", "n", "d", "eps", "k", "pairs", "seconds_total", "phases",
                "replicated_points", "compared_pairs"):
        assert key in stats, key
    assert stats["pairs"] == len(expected) and stats["n"] == 800 and stats["d"] == 3
    count = simjoin("join", "--input", f"{tmp}/a.csv", "--eps", eps, "--engine", "cpu-bruteforce",
                    "--count-only")
    assert f"pairs:    {len(expected)}" in count.stdout, count.stdout
    simjoin("join", "--input", f"{tmp}/a.csv", "--eps", eps, "--engine", "cpu-bruteforce",
            "--output", f"{tmp}/p.bin")
    raw = open(f"{tmp}/p.bin", "rb").read()
    assert raw[:8] == b"SJPAIRS1"
    n = int(np.frombuffer(raw[8:16], dtype="<u8")[0])
    pairs = np.frombuffer(raw[16:], dtype="<u4").reshape(n, 2)
    assert set(map(tuple, pairs.tolist())) == expected


def test_generate_and_info():
    simjoin("generate", "--kind", "clusters", "--n", 1000, "--dims", 4, "--clusters", 3,
            "--sigma", 0.1, "--low", 0, "--high", 5, "--seed", 7, "--out", f"{tmp}/g.npy")
    g = np.load(f"{tmp}/g.npy")
    assert g.shape == (1000, 4) and g.dtype == np.float32
    info = simjoin("info", f"{tmp}/g.npy").stdout
    assert "points: 1000" in info and "dims:   4" in info
    simjoin("generate", "--kind", "uniform", "--n", 10, "--dims", 2, "--seed", 7, "--out", f"{tmp}/g2.npy")
    simjoin("generate", "--kind", "uniform", "--n", 10, "--dims", 2, "--seed", 7, "--out", f"{tmp}/g3.npy")
    assert np.array_equal(np.load(f"{tmp}/g2.npy"), np.load(f"{tmp}/g3.npy"))


def test_exit_codes_and_messages():
    assert "error" in simjoin("join", "--input", f"{tmp}/missing.csv", "--eps", 1, expect=3).stderr
    with open(f"{tmp}/ragged.csv", "w") as f:
        f.write("1,2\n3\n")
    bad = simjoin("join", "--input", f"{tmp}/ragged.csv", "--eps", 1, expect=3).stderr
    assert "ragged.csv" in bad and "line 2" in bad, bad
    simjoin("join", "--input", f"{tmp}/ragged.csv", expect=2)  # --eps missing
    np.save(f"{tmp}/ok.npy", rng.uniform(size=(10, 2)).astype(np.float32))
    simjoin("join", "--input", f"{tmp}/ok.npy", "--eps", -1, expect=2)
    simjoin("join", "--input", f"{tmp}/ok.npy", "--eps", 1, "--engine", "no-such-engine", expect=2)
    listing = simjoin("engines").stdout
    assert "cpu-bruteforce" in listing and "available" in listing


def test_bench_agrees_and_writes_json():
    np.save(f"{tmp}/bench.npy", rng.uniform(size=(3000, 2)).astype(np.float32))
    out = simjoin("bench", "--input", f"{tmp}/bench.npy", "--eps", 0.02, "--engines",
                  "cpu-bruteforce,cpu-nlj", "--repeat", 2, "--json", f"{tmp}/bench.json").stdout
    report = json.load(open(f"{tmp}/bench.json"))
    assert [r["engine"] for r in report["results"]] == ["cpu-bruteforce", "cpu-nlj"]
    assert len(report["results"][0]["seconds"]) == 2 and "speedup" in out
    # NAME@GPUS entries time one engine on different GPUs side by side; bad ordinals are usage errors.
    bad = simjoin("bench", "--input", f"{tmp}/bench.npy", "--eps", 0.02, "--engines", "cpu-nlj@0+x",
                  expect=2).stderr
    assert "cpu-nlj@0+x" in bad and "'x' is not a GPU ordinal" in bad, bad
    simjoin("bench", "--input", f"{tmp}/bench.npy", "--eps", 0.02, "--engines", "no-such@0", expect=2)


def test_join_labels_vtp():
    try:
        from vtkmodules.vtkIOXML import vtkXMLPolyDataReader
        from vtkmodules.util.numpy_support import vtk_to_numpy
    except ImportError:
        print("SKIP labels check: python3-vtk9 is not installed")
        return
    a = np.concatenate([rng.normal(c, 0.3, size=(300, 2)) for c in ((0, 0), (3, 0), (0, 3))]).astype(np.float32)
    np.save(f"{tmp}/labels.npy", a)
    eps = 0.25
    # Float32 engines may differ from float64 only on pairs within rounding of eps (core/verify.cpp).
    tolerance = max(1e-6, 4.0 * (a.shape[1] + 2) * 2.0 ** -24)
    degree_low, degree_high = (degrees(numpy_pairs(a, None, eps * np.sqrt(1 + sign * tolerance)), len(a))
                               for sign in (-1, 1))
    for engine, k in (("cpu-kmeans", 4), ("cpu-grid", 0)):
        simjoin("join", "--input", f"{tmp}/labels.npy", "--eps", eps, "--engine", engine, "--k", k,
                "--labels-vtp", f"{tmp}/labels.vtp", "--stats", f"{tmp}/labels.json")
        reader = vtkXMLPolyDataReader()
        reader.SetFileName(f"{tmp}/labels.vtp")
        reader.Update()
        data = reader.GetOutput()
        assert data.GetNumberOfPoints() == len(a)
        assert np.allclose(vtk_to_numpy(data.GetPoints().GetData())[:, :2], a)
        arrays = {name: vtk_to_numpy(data.GetPointData().GetArray(name))
                  for name in ("partition", "replicated", "neighbors")}
        assert (degree_low <= arrays["neighbors"]).all() and (arrays["neighbors"] <= degree_high).all(), engine
        stats = json.load(open(f"{tmp}/labels.json"))
        assert arrays["replicated"].sum() == stats.get("replicated_points", 0), engine
        if k:
            labels = set(arrays["partition"].tolist())
            assert labels <= set(range(k)) and len(labels) > 1, engine
            assert arrays["replicated"].sum() > 0, engine
        else:
            assert (arrays["partition"] == -1).all() and (arrays["replicated"] == 0).all(), engine
    simjoin("join", "--input", f"{tmp}/labels.npy", "--eps", eps, "--count-only",
            "--labels-vtp", f"{tmp}/x.vtp", expect=2)


def test_sweep_writes_csv_and_chart():
    if subprocess.run([SIMJOIN, "sweep", "--help"], capture_output=True).returncode != 0:
        missing = simjoin("sweep", "--input", "x.npy", expect=4).stderr
        assert "GUI build" in missing, missing
        print("SKIP sweep: this simjoin was built without the GUI")
        return
    a = rng.uniform(0, 4, size=(800, 3)).astype(np.float32)
    np.save(f"{tmp}/sweep.npy", a)
    eps_values = (0.1, 0.2, 0.4)
    simjoin("sweep", "--input", f"{tmp}/sweep.npy", "--engines", "cpu-grid,cpu-bruteforce",
            "--eps", ",".join(map(str, eps_values)), "--csv", f"{tmp}/sweep.csv",
            "--chart", f"{tmp}/sweep.svg", "--quiet")
    rows = np.genfromtxt(f"{tmp}/sweep.csv", delimiter=",", names=True, dtype=None, encoding="utf-8")
    assert len(rows) == 6
    assert sorted(set(rows["engine"].tolist())) == ["cpu-bruteforce", "cpu-grid"]
    for row in rows:
        assert row["pairs"] == len(numpy_pairs(a, None, float(row["eps"]))), row
    svg = open(f"{tmp}/sweep.svg").read()
    assert "<svg" in svg and "cpu-grid" in svg
    simjoin("sweep", "--input", f"{tmp}/sweep.npy", "--engines", "cpu-kmeans", "--eps", 0.3,
            "--k", "2,4,8", "--metric", "replicated", "--chart", f"{tmp}/sweep.png", "--quiet")
    assert open(f"{tmp}/sweep.png", "rb").read(8) == b"\x89PNG\r\n\x1a\n"
    simjoin("sweep", "--input", f"{tmp}/sweep.npy", "--engines", "cpu-grid", "--eps", 0.3,
            "--chart", f"{tmp}/sweep.gif", expect=2)


def main():
    print(f"test_cli.py: seed {SEED} (SIMJOIN_TEST_SEED={SEED} replays it)")
    tests = [value for name, value in sorted(globals().items()) if name.startswith("test_")]
    passed = failed = 0
    for test in tests:
        try:
            test()
            passed += 1
            print(f"PASS {test.__name__}")
        except Exception:  # report every failing test, not only the first
            failed += 1
            print(f"FAIL {test.__name__}\n{traceback.format_exc()}")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
