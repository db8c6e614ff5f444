#!/usr/bin/env python3
"""End-to-end tests of the `simjoin` command line against an independent NumPy computation.

Usage: test_cli.py PATH/TO/simjoin [TEST ...]. Without names it runs every test but those that depend
on the build or the machine (marked @separate: ctest runs each as its own test); with names, those.
Fresh random inputs each run (seed printed); prints 'N passed, N failed, N skipped' last and exits 1
on any failure, 77 (ctest's SKIP_RETURN_CODE) when every test named was skipped, else 0.
SIMJOIN_GUI_BUILT=ON says that this build has the GUI, whose commands must then work.
"""
import functools
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

from cli_runner import Skipped, run, run_tests, seed, tests_in

SIMJOIN = sys.argv[1]
SEED = seed()
rng = np.random.default_rng(SEED)
tmp = tempfile.mkdtemp(prefix="simjoin-cli-test-")


GUI_BUILT = os.environ.get("SIMJOIN_GUI_BUILT", "OFF").upper() in ("ON", "1", "TRUE", "YES")
SEPARATE = set()


def separate(test):
    """Marks a test that ctest runs on its own, so that its skip shows as a skipped ctest test."""
    SEPARATE.add(test.__name__)
    return test


simjoin = functools.partial(run, SIMJOIN)


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
    # The eps the application suggests, by the same rule: on a lattice of spacing 0.5 the 10th
    # neighbour of a typical point is two spacings away.
    s, t = np.meshgrid(np.arange(40), np.arange(40))
    np.savetxt(f"{tmp}/lattice.csv", 0.5 * np.column_stack([s.ravel(), t.ravel()]) + 3, delimiter=",")
    lattice = simjoin("info", f"{tmp}/lattice.csv").stdout
    assert "eps:    1 suggested" in lattice and "measured against all 1600" in lattice, lattice
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


def cpu_engines():
    """(name, exact) of every CPU engine `simjoin engines` lists as available."""
    rows = [line.split() for line in simjoin("engines").stdout.splitlines()[1:]]
    return [(row[0], row[2] == "yes") for row in rows if len(row) > 3 and row[1] == "CPU" and row[3] == "available"]


def test_eps_over_the_whole_double_range():
    # Five points at least 0.2 apart, each twice: eps below that finds the 5 repeats only (a subnormal
    # eps once returned every pair), eps of 1e300 and up all 45 pairs; the text of eps as typed.
    points = np.random.default_rng(0).random((5, 2))
    np.save(f"{tmp}/five.npy", np.concatenate([points, points]))
    engines = cpu_engines()
    assert len(engines) >= 5 and ("cpu-bruteforce", True) in engines, engines
    for eps in ("5e-324", "1e-310", "2.2250738585072014e-308", "1e-300", "1e300", "1e308"):
        for engine, exact in engines:
            out = simjoin("join", "--input", f"{tmp}/five.npy", "--eps", eps, "--engine", engine,
                          "--count-only").stdout
            expected = 5 if float(eps) < 1 else 45
            count = int(out.split("pairs:")[1].split()[0])
            assert count == expected if exact else count <= expected, f"{engine} at eps {eps}: {out}"
    simjoin("join", "--input", f"{tmp}/five.npy", "--eps", "1e-310", "--output", f"{tmp}/five-pairs.npy")
    assert read_pairs(f"{tmp}/five-pairs.npy") == {(i, i + 5) for i in range(5)}


def planted_duplicates(n, d, offset):
    """Random float64 rows near `offset` with copies of other rows, rows one ulp off another in one
    dimension (not pairs at eps 0), and -0.0 in a copy of a row holding 0.0 (a pair)."""
    x = offset + rng.uniform(-1000, 1000, size=(n, d))
    x[rng.choice(n, n // 5, replace=False)] = x[rng.choice(n, n // 5)]
    off = rng.choice(n, n // 10, replace=False)
    x[off] = x[rng.choice(n, n // 10)]
    dims = rng.integers(0, d, size=len(off))
    x[off, dims] = np.nextafter(x[off, dims], np.where(rng.random(len(off)) < 0.5, np.inf, -np.inf))
    x[0, 0] = 0.0
    x[1] = x[0]
    x[1, 0] = -0.0
    return x


def test_eps_zero_joins_the_duplicates_as_scipy():
    """--eps 0 returns exactly the pairs at distance 0 on every CPU engine, as SciPy's
    cKDTree.query_pairs(r=0) (and query_ball_point for A join B) finds them, also near +-1e15 where
    one ulp is 0.125. About 2 s."""
    from scipy.spatial import cKDTree
    engines = cpu_engines()
    assert len(engines) >= 5, engines
    for d, offset in ((2, 0.0), (3, -1e15)):
        a, b = planted_duplicates(1500, d, offset), planted_duplicates(300, d, offset)
        b[::3] = a[rng.choice(len(a), len(b[::3]))]  # B holds copies of rows of A
        np.save(f"{tmp}/dup-a.npy", a)
        np.save(f"{tmp}/dup-b.npy", b)
        self_pairs = set(map(tuple, cKDTree(a).query_pairs(0.0, output_type="ndarray").tolist()))
        ab_pairs = {(i, j) for j, row in enumerate(cKDTree(a).query_ball_point(b, 0.0)) for i in row}
        assert len(self_pairs) >= 100 and (0, 1) in self_pairs and len(ab_pairs) >= 100, (len(self_pairs), d)
        for engine, exact in engines:
            simjoin("join", "--input", f"{tmp}/dup-a.npy", "--eps", 0, "--engine", engine,
                    "--output", f"{tmp}/dup-self.npy")
            simjoin("join", "--input", f"{tmp}/dup-a.npy", "--input-b", f"{tmp}/dup-b.npy", "--eps", "0",
                    "--engine", engine, "--output", f"{tmp}/dup-ab.npy")
            found_self, found_ab = read_pairs(f"{tmp}/dup-self.npy"), read_pairs(f"{tmp}/dup-ab.npy")
            if exact:
                assert found_self == self_pairs, f"{engine}, d={d}, offset {offset}: self-join differs"
                assert found_ab == ab_pairs, f"{engine}, d={d}, offset {offset}: A join B differs"
            else:
                assert found_self <= self_pairs and found_ab <= ab_pairs, f"{engine}, d={d}: extra pairs"


def test_bench_agrees_and_writes_json():
    np.save(f"{tmp}/bench.npy", rng.uniform(size=(3000, 2)).astype(np.float32))
    out = simjoin("bench", "--input", f"{tmp}/bench.npy", "--eps", 0.02, "--engines",
                  "cpu-bruteforce,cpu-nlj", "--repeat", 2, "--json", f"{tmp}/bench.json").stdout
    report = json.load(open(f"{tmp}/bench.json"))
    assert [r["engine"] for r in report["results"]] == ["cpu-bruteforce", "cpu-nlj"]
    # Both exact: the same count, the float64 count of the file's values (else bench exits 5).
    expected = len(numpy_pairs(np.load(f"{tmp}/bench.npy"), None, 0.02))
    assert expected > 0 and report["counts_agree"] is True, report
    assert [r["pairs"] for r in report["results"]] == [expected, expected], report
    assert len(report["results"][0]["seconds"]) == 2 and "speedup" in out
    # NAME@GPUS entries time one engine on different GPUs side by side; bad ordinals are usage errors.
    bad = simjoin("bench", "--input", f"{tmp}/bench.npy", "--eps", 0.02, "--engines", "cpu-nlj@0+x",
                  expect=2).stderr
    assert "cpu-nlj@0+x" in bad and "'x' is not a GPU ordinal" in bad, bad
    simjoin("bench", "--input", f"{tmp}/bench.npy", "--eps", 0.02, "--engines", "no-such@0", expect=2)


def test_bench_cancel_after_reports_latency():
    # About 2 * 10^7 pairs: 0.1 s or more for the fastest engine on two cores, so every engine is still
    # running at 20 ms (60,000 points took cpu-grid 14 ms).
    np.save(f"{tmp}/cancel.npy", rng.uniform(size=(300000, 3)).astype(np.float32))
    engines = ["cpu-nlj", "cpu-grid", "cpu-kmeans", "cpu-rtree"]
    out = simjoin("bench", "--input", f"{tmp}/cancel.npy", "--eps", 0.05, "--engines", ",".join(engines),
                  "--cancel-after", 20, "--repeat", 3, "--warmup", 0, "--json", f"{tmp}/cancel.json").stdout
    assert "cancel requested 20 ms after each start" in out, out
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line.split()[:1] and
            line.split()[0] in engines}
    assert sorted(rows) == sorted(engines), out
    report = json.load(open(f"{tmp}/cancel.json"))
    assert report["cancel_after_ms"] == 20 and "results" not in report, report
    assert [entry["engine"] for entry in report["cancel_latency"]] == engines
    for entry in report["cancel_latency"]:
        latencies = entry["latency_seconds"]
        assert len(latencies) + entry["finished_before_cancel"] == 3, entry
        assert latencies, f"{entry['engine']} finished before every cancel: {entry}"
        # The product's bound is 100 ms; a loaded shared test machine gets margin.
        assert entry["max"] == max(latencies) and entry["max"] < 0.5, entry
        assert rows[entry["engine"]][-1] == f"{len(latencies)}/3", out


def grid_clusters(clusters, size, d=16):
    """Points with integer coordinates below 1024: 30-odd clusters of `size` points, offsets 0..7 from a
    centre in [700, 1000). In float32 the norm form |x|^2 + |y|^2 - 2 x.y is then exact in every step
    but one, whatever the order of the sums: squares and dot products stay below 2^24 (2 x.y below 2^25,
    even), but |x|^2 + |y|^2 passes 2^24 and rounds odd sums to even. So the float32 count does not depend
    on the matrix product's summation order (torch's and NumPy's differ), yet differs from the exact
    one at pairs one unit beyond the squared radius."""
    centres = rng.integers(700, 1000, size=(clusters, 1, d))
    return (centres + rng.integers(0, 8, size=(clusters, size, d))).reshape(-1, d).astype(np.float32)


def float32_norm_form_count(a, b, eps):
    """The float32 count the PyTorch peer computes (d2 = |x|^2 + |y|^2 - 2 x.y <= eps^2), in NumPy."""
    y = a if b is None else b
    d2 = (a * a).sum(1)[:, None] + (y * y).sum(1)[None, :] - 2 * a @ y.T
    hit = d2 <= np.float32(eps * eps)
    return int(np.triu(hit, k=1).sum() if b is None else hit.sum())


def exact_count(a, b, eps):
    """The float64 count: exact here, as every value of the norm form is an integer below 2^53."""
    a64 = a.astype(np.float64)
    y = a64 if b is None else b.astype(np.float64)
    hit = (a64 * a64).sum(1)[:, None] + (y * y).sum(1)[None, :] - 2 * a64 @ y.T <= eps * eps
    return int(np.triu(hit, k=1).sum() if b is None else hit.sum())


@separate
def test_bench_compare_torch():
    """--compare-torch reports the float32 tile count's difference from the engines' exact count, self-join
    and A-join-B: +N where an even squared radius lets pairs at radius^2 + 1 round in, -N where an odd
    one lets pairs at radius^2 round out. About 6 s (importing torch twice is most of it)."""
    a, b = grid_clusters(30, 100), grid_clusters(20, 100)
    np.save(f"{tmp}/torch-a.npy", a)
    np.save(f"{tmp}/torch-b.npy", np.concatenate([b, a[:1000]]))  # A-join-B pairs in the shared clusters
    b = np.load(f"{tmp}/torch-b.npy")
    squares = 2 * rng.integers(50, 70, size=2) + [0, 1]  # an even one for the self-join, an odd one for A-join-B
    for b_file, squared in zip((None, f"{tmp}/torch-b.npy"), squares.tolist()):
        eps = float(np.sqrt(squared + 0.5))  # no distance at eps: the exact count has no ties
        inputs = ["--input", f"{tmp}/torch-a.npy"] + (["--input-b", b_file] if b_file else [])
        out = simjoin("bench", *inputs, "--eps", repr(eps), "--engines", "cpu-grid", "--repeat", 2, "--warmup", 0,
                      "--count-only", "--compare-torch", "--json", f"{tmp}/torch.json").stdout
        line = next(line for line in out.splitlines() if line.startswith("torch-float32"))
        if "not run:" in line:
            raise Skipped(line)
        exact = exact_count(a, None if b_file is None else b, eps)
        difference = float32_norm_form_count(a, None if b_file is None else b, eps) - exact
        assert difference > 0 if squared % 2 == 0 else difference < 0, (squared, difference)
        print(f"  eps^2 = {squared} + 0.5: {exact} pairs exact, {difference:+d} in float32")
        report = json.load(open(f"{tmp}/torch.json"))
        assert report["results"][0]["pairs"] == exact, (report["results"], exact)
        peer = report["peers"]["torch-float32"]
        assert peer["pairs_minus_exact"] == difference and peer["pairs"] == exact + difference, (peer, difference)
        assert len(peer["seconds"]) == 2 and peer["median"] > 0 and "float32" in peer["note"], peer
        assert f"{difference:+d} pairs against the exact count" in line and "warm" in line, line
        assert (" join " in out.splitlines()[0]) == (b_file is not None), out


def test_bench_compare_torch_missing_goes_on():
    # An interpreter without torch (a torch module that fails to import, first on the path): one line
    # says so, the engines' table and JSON are complete, exit 0. About 0.4 s.
    np.save(f"{tmp}/hidden.npy", rng.uniform(size=(500, 3)).astype(np.float32))
    os.makedirs(f"{tmp}/hidden", exist_ok=True)
    with open(f"{tmp}/hidden/torch.py", "w") as module:
        module.write("raise ImportError(\"No module named 'torch'\")\n")
    env = dict(os.environ, PYTHONPATH=f"{tmp}/hidden")
    out = simjoin("bench", "--input", f"{tmp}/hidden.npy", "--eps", 0.1, "--engines", "cpu-grid", "--repeat", 1,
                  "--compare-torch", "--json", f"{tmp}/hidden.json", env=env).stdout
    lines = [line for line in out.splitlines() if "torch" in line]
    assert len(lines) == 1 and lines[0].startswith("torch-float32") and "PyTorch is not importable" in lines[0], out
    assert "install python3-torch" in lines[0], lines
    report = json.load(open(f"{tmp}/hidden.json"))
    assert "PyTorch is not importable" in report["peers"]["torch-float32"]["not_run"], report["peers"]
    assert report["counts_agree"] is True and report["results"][0]["pairs"] > 0, report
    # A peer that fails otherwise (here at import, as out of GPU memory would later) says so and goes on too.
    with open(f"{tmp}/hidden/torch.py", "w") as module:
        module.write("raise RuntimeError('CUDA out of memory')\n")
    out = simjoin("bench", "--input", f"{tmp}/hidden.npy", "--eps", 0.1, "--engines", "cpu-grid", "--repeat", 1,
                  "--compare-torch", env=env).stdout
    assert "torch-float32          not run: its script failed" in out and "cpu-grid" in out, out


@separate
def test_studio_help_and_version_without_display():
    if not GUI_BUILT:
        raise Skipped("this build has no GUI (SIMJOIN_GUI=OFF)")
    studio = os.path.join(os.path.dirname(SIMJOIN), "simjoin-studio")
    assert os.path.exists(studio), f"the GUI build has no {studio}"
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    for flag, expected in (("--help", "--eps"), ("--version", "0.1.0")):
        result = subprocess.run([studio, flag], capture_output=True, text=True, timeout=60, env=env)
        assert result.returncode == 0, f"{flag}: exit {result.returncode}\n{result.stdout}\n{result.stderr}"
        assert expected in result.stdout, result.stdout


def test_join_labels_vtp():
    # python3-vtk9 is one of the dependencies scripts/setup-debian installs: its absence is a failure.
    from vtkmodules.vtkIOXML import vtkXMLPolyDataReader
    from vtkmodules.util.numpy_support import vtk_to_numpy
    a = np.concatenate([rng.normal(c, 0.3, size=(300, 2)) for c in ((0, 0), (3, 0), (0, 3))]).astype(np.float32)
    np.save(f"{tmp}/labels.npy", a)
    eps = 0.25
    # Exact engines find exactly the float64 pairs of the file's values.
    expected_degrees = degrees(numpy_pairs(a, None, eps), len(a))
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
        assert (arrays["neighbors"] == expected_degrees).all(), engine
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


def test_hostile_point_files_exit_3_naming_the_file():
    """PLY and VTP files that crashed or hung VTK's readers: exit 3, the file and line named."""
    xyz = "property float x\nproperty float y\nproperty float z\n"
    short = f"{tmp}/a2.ply"
    with open(short, "w") as f:
        f.write(f"ply\nformat ascii 1.0\nelement vertex 2\n{xyz}end_header\n1 2 3\n4 5\n")
    err = simjoin("join", "--input", short, "--eps", 1, "--engine", "cpu-grid", "--count-only", expect=3).stderr
    assert short in err and "line 9" in err and "'z' is missing" in err and "internal" not in err, err
    faces_first = f"{tmp}/faces-first.ply"
    with open(faces_first, "w") as f:
        f.write(f"ply\nformat ascii 1.0\nelement face 1\nproperty list uchar int v\nelement vertex 3\n{xyz}"
                "end_header\n3 0 1 2\n0 0 0\n0.5 0 0\n5 5 5\n")
    out = simjoin("join", "--input", faces_first, "--eps", 1, "--engine", "cpu-grid", "--count-only").stdout
    assert "1" in out.split(), out
    huge = f"{tmp}/huge.vtp"
    with open(huge, "w") as f:
        f.write('<VTKFile type="PolyData"><PolyData><Piece NumberOfPoints="1000000000000"><Points>'
                '<DataArray type="Float32" NumberOfComponents="3" format="binary">AAAAAA==</DataArray>'
                '</Points></Piece></PolyData></VTKFile>')
    err = simjoin("info", huge, expect=3).stderr
    assert huge in err, err


def test_las_with_utm_offsets_joins_exactly():
    """A LAS 1.2 file at UTM-sized offsets: the pairs of the scaled float64 coordinates."""
    stored = rng.integers(-20000, 20000, size=(400, 3), dtype=np.int32)
    scale, offset = np.array([0.001, 0.001, 0.001]), np.array([500000.0, 4000000.0, 100.0])
    header = bytearray(227)
    header[0:4] = b"LASF"
    header[24:26] = bytes([1, 2])
    header[94:96] = (227).to_bytes(2, "little")
    header[96:100] = (227).to_bytes(4, "little")
    header[104] = 0
    header[105:107] = (20).to_bytes(2, "little")
    header[107:111] = len(stored).to_bytes(4, "little")
    header[131:179] = np.concatenate([scale, offset]).astype("<f8").tobytes()
    records = np.zeros((len(stored), 20), dtype=np.uint8)
    records[:, :12] = stored.astype("<i4").view(np.uint8).reshape(-1, 12)
    path = f"{tmp}/utm.las"
    with open(path, "wb") as f:
        f.write(bytes(header) + records.tobytes())
    points = stored * scale + offset
    simjoin("join", "--input", path, "--eps", 2.5, "--engine", "cpu-grid", "--output", f"{tmp}/las.npy")
    expected = numpy_pairs(points, None, 2.5)
    assert len(expected) > 10 and read_pairs(f"{tmp}/las.npy") == expected
    laz = f"{tmp}/utm.laz"
    os.replace(path, laz)
    assert "laszip" in simjoin("info", laz, expect=3).stderr


@separate
def test_sweep_writes_csv_and_chart():
    if not GUI_BUILT:
        missing = simjoin("sweep", "--input", "x.npy", expect=4).stderr
        assert "GUI build" in missing, missing
        raise Skipped("this build has no GUI (SIMJOIN_GUI=OFF); checked that sweep refuses with exit 4")
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


def limited_simjoin(memory_bytes, *args, expect=0):
    """simjoin under an address-space limit (ulimit -v), as a machine short of memory would run it."""
    import resource

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))

    return simjoin(*args, expect=expect, preexec_fn=limit)


def test_results_larger_than_memory():
    # 20,000 points within eps of each other: 2e8 pairs, 1.6 GB as a pair list, under a 1 GiB limit.
    a = rng.uniform(0, 1, size=(20000, 2)).astype(np.float32)
    np.save(f"{tmp}/dense.npy", a)
    all_pairs = 20000 * 19999 // 2
    out = limited_simjoin(1 << 30, "join", "--input", f"{tmp}/dense.npy", "--eps", 2, "--engine", "cpu-grid").stdout
    assert f"pairs:    {all_pairs}" in out and "first pairs: (0, 1) (0, 2)" in out, out
    # bench keeps the pairs in memory: it refuses, naming the estimate and the ways out.
    refused = limited_simjoin(1 << 30, "bench", "--input", f"{tmp}/dense.npy", "--eps", 2, "--engines",
                              "cpu-grid", expect=4).stderr
    assert "pairs" in refused and "available" in refused and "--count-only" in refused, refused
    # Neighbour lists are built from a streamed pair file, a group of rows at a time.
    small = rng.uniform(0, 1, size=(3000, 2)).astype(np.float32)
    np.save(f"{tmp}/small.npy", small)
    eps = 0.05
    simjoin("join", "--input", f"{tmp}/small.npy", "--eps", eps, "--neighbors", f"{tmp}/snb")
    expected = numpy_pairs(small, None, eps)
    offsets, ids = np.load(f"{tmp}/snb.offsets.npy"), np.load(f"{tmp}/snb.ids.npy")
    assert offsets[-1] == 2 * len(expected)
    assert not os.path.exists(f"{tmp}/snb.pairs.tmp")


def test_output_failures_exit_cleanly():
    np.save(f"{tmp}/few.npy", rng.uniform(size=(2000, 2)).astype(np.float32))
    # A path that cannot be written is bad input (3).
    missing = simjoin("join", "--input", f"{tmp}/few.npy", "--eps", 0.5, "--output",
                      f"{tmp}/no-such-dir/p.csv", expect=3).stderr
    assert "no-such-dir/p.csv" in missing and "terminate" not in missing, missing
    # A run that fails part way removes its partial output.
    simjoin("join", "--input", f"{tmp}/few.npy", "--eps", 0.5, "--engine", "no-such-engine", "--output",
            f"{tmp}/partial.csv", expect=2)
    assert not os.path.exists(f"{tmp}/partial.csv")


def refusal(command, option, env=None):
    """Runs a command that must refuse `--option` with exit 2; the message from "--option: " on."""
    result = subprocess.run([*map(str, command)], capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 2, f"{' '.join(map(str, command))}: exit {result.returncode}\n{result.stderr}"
    lines = [line for line in result.stderr.splitlines() if f"--{option}: " in line]
    assert lines, f"{' '.join(map(str, command))}: no message about --{option}\n{result.stderr}"
    return lines[0][lines[0].index(f"--{option}: "):]


def python_eps_refusals(points, value):
    """The Python module's words for a bad eps, where this build has it (SIMJOIN_PYTHON_DIR): the
    ValueError of simjoin.join and simjoin.radius_neighbors_graph, as "--eps: ...", and python3 -m
    simjoin.distributed's refusal with exit 2."""
    where = os.environ.get("SIMJOIN_PYTHON_DIR")
    if not where:
        return {}
    env = {**os.environ, "PYTHONPATH": where}
    script = """if True:
        import sys, numpy, simjoin
        x, value = numpy.load(sys.argv[1]), sys.argv[2]
        given = [value]  # as text, and as a float where it reads as one
        try:
            given.append(float(value))
        except ValueError:
            pass
        for eps in given:
            for call in (simjoin.join, simjoin.radius_neighbors_graph):
                try:
                    call(x, eps)
                    print("accepted")
                except ValueError as e:
                    print(str(e).replace("radius: ", "eps: "))
        """
    result = subprocess.run([sys.executable, "-c", script, points, value], capture_output=True, text=True,
                            timeout=120, env=env)
    assert result.returncode == 0, result.stderr
    said = {f"python {i}": "--" + line for i, line in enumerate(result.stdout.splitlines())}
    assert len(said) >= 2, result.stdout
    said["simjoin.distributed"] = refusal([sys.executable, "-m", "simjoin.distributed", "--input", points,
                                           f"--eps={value}", "--out", f"{tmp}/never"], "eps", env)
    return said


@separate
def test_bad_options_get_the_same_message_everywhere():
    """The options schema (core/options/option_schema.hpp): simjoin, simjoin-sweep (also as `simjoin
    sweep`) and simjoin-studio refuse the same bad value with the same message and exit code 2; a bad
    eps gets the same words from the Python module (core/join/eps_rule.hpp), as a ValueError."""
    if not GUI_BUILT:
        raise Skipped("this build has no GUI (SIMJOIN_GUI=OFF): no simjoin-sweep or simjoin-studio")
    programs = os.path.dirname(SIMJOIN)
    sweep, studio = os.path.join(programs, "simjoin-sweep"), os.path.join(programs, "simjoin-studio")
    points = f"{tmp}/schema.npy"
    np.save(points, rng.random((40, 2)).astype(np.float32))
    offscreen = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    for option, value in (("eps", "-1"), ("eps", "nan"), ("eps", "inf"), ("eps", "abc"), ("eps", "0.5x"),
                          ("k", "-3"), ("k", "2.5"), ("k", "many")):
        given = [f"--{option}={value}"] + (["--eps", "0.1"] if option != "eps" else [])
        messages = {
            "simjoin join": refusal([SIMJOIN, "join", "--input", points, *given], option),
            "simjoin sweep": refusal([SIMJOIN, "sweep", "--input", points, "--engines", "cpu-grid", *given], option),
            "simjoin-sweep": refusal([sweep, "--input", points, "--engines", "cpu-grid", *given], option),
            "simjoin-studio": refusal([studio, points, *given, "--quit"], option, offscreen),
        }
        if option == "eps":
            messages.update(python_eps_refusals(points, value))
        assert len(set(messages.values())) == 1, f"--{option} {value}: {messages}"
    for option, value in (("seed", "-1"), ("threads", "x"), ("devices", "0,-1"), ("repeat", "0"), ("warmup", "101")):
        bench = refusal([SIMJOIN, "bench", "--input", points, "--eps", "0.1", "--engines", "cpu-grid",
                         f"--{option}={value}"], option)
        assert bench == refusal([sweep, "--input", points, "--engines", "cpu-grid", "--eps", "0.1",
                                 f"--{option}={value}"], option), option
    # A figure's size and resolution: --size/--dpi of the sweep, --export-size/--export-dpi of the studio.
    figure = f"{tmp}/schema.png"
    for option, value in (("size", "8x8"), ("size", "1500"), ("size", "0x2in"), ("size", "0.1x2in"),
                          ("dpi", "0"), ("dpi", "2401")):
        from_sweep = refusal([sweep, "--input", points, "--engines", "cpu-grid", "--eps", "0.1",
                              f"--{option}={value}"], option)
        from_studio = refusal([studio, points, "--export-view", figure, f"--export-{option}={value}", "--quit"],
                              f"export-{option}", offscreen)
        assert from_sweep.replace(f"--{option}: ", "") == from_studio.replace(f"--export-{option}: ", ""), (
            from_sweep, from_studio)


@separate
def test_full_disk_exits_4():
    # A full disk is a resource running out (exit 4), and the partial file is removed.
    if not os.path.exists("/dev/full"):
        raise Skipped("this machine has no /dev/full")
    np.save(f"{tmp}/few.npy", rng.uniform(size=(2000, 2)).astype(np.float32))
    os.symlink("/dev/full", f"{tmp}/full.bin")
    full = simjoin("join", "--input", f"{tmp}/few.npy", "--eps", 0.5, "--output", f"{tmp}/full.bin",
                   expect=4).stderr
    assert "No space left" in full and "terminate" not in full, full


def main():
    print(f"test_cli.py: seed {SEED} (SIMJOIN_TEST_SEED={SEED} replays it)")
    every = dict(sorted(tests_in(globals()).items()))
    named = sys.argv[2:]
    unknown = [name for name in named if name not in every]
    assert not unknown, f"no such tests: {unknown}"
    run_tests([every[name] for name in named] or [value for name, value in every.items() if name not in SEPARATE])


if __name__ == "__main__":
    main()
