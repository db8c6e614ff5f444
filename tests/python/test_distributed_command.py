"""simjoin.distributed as users run it: docs/distributed.md's example as a saved script, from standard
input and without its main guard (refused at once, not looping); every exit code of
`python3 -m simjoin.distributed`, each with a one-line message and no traceback; SIGINT and SIGTERM
mid-run (130, no shard left); a user's file in the output directory surviving every run; Dask's
commands of the docs listening on loopback only."""
import os
import re
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import psutil
import pytest

import simjoin
import simjoin.distributed as sd
from reference import self_pairs, sorted_pairs
from simjoin.distributed.command import main as command_main

DOCS = Path(__file__).resolve().parents[2] / "docs" / "distributed.md"
USER_FILE = "pairs-important-results.npy"


def environment():
    return dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))


def command(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "simjoin.distributed", *args], capture_output=True, text=True,
                          env=environment(), timeout=timeout)


def assert_short_error(done, code, *words):
    assert done.returncode == code, (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert 1 <= len(lines) <= 3, done.stderr[-2000:]
    for word in words:
        assert word in done.stderr, done.stderr


def docs_example():
    """The first Python example of docs/distributed.md, as it stands there."""
    return re.search(r"```python\n(.*?)```", DOCS.read_text(), re.S).group(1)


@pytest.fixture
def points(tmp_path, rng):
    """points-0.npy and points-1.npy in tmp_path, for the docs' eps of 0.5: a few hundred pairs."""
    X = rng.uniform(0, 20, (3000, 3))
    np.save(tmp_path / "points-0.npy", X[:1300])
    np.save(tmp_path / "points-1.npy", X[1300:])
    return X


def assert_docs_pairs(tmp_path, X, done):
    assert done.returncode == 0, done.stderr[-3000:]
    expected = self_pairs(X, 0.5)
    assert len(expected) > 0
    assert np.array_equal(sorted_pairs(sd.read_pairs(tmp_path / "pairs").compute()), expected)
    assert done.stdout.splitlines()[-1].split()[0] == str(len(expected)), done.stdout


def test_docs_example_as_a_saved_script(tmp_path, points):
    (tmp_path / "example.py").write_text(docs_example())
    done = subprocess.run([sys.executable, "example.py"], cwd=tmp_path, capture_output=True, text=True,
                          env=environment(), timeout=180)
    assert_docs_pairs(tmp_path, points, done)


def test_docs_example_from_standard_input(tmp_path, points):
    done = subprocess.run([sys.executable, "-"], input=docs_example(), cwd=tmp_path, capture_output=True,
                          text=True, env=environment(), timeout=180)
    assert_docs_pairs(tmp_path, points, done)


def test_script_without_the_main_guard_is_refused_at_once(tmp_path, points):
    lines = docs_example().splitlines()
    guard = next(i for i, line in enumerate(lines) if line.startswith("if __name__"))
    unguarded = "\n".join(lines[:guard]) + "\n" + textwrap.dedent("\n".join(lines[guard + 1:])) + "\n"
    (tmp_path / "unguarded.py").write_text(unguarded)
    started = time.monotonic()
    done = subprocess.run([sys.executable, "unguarded.py"], cwd=tmp_path, capture_output=True, text=True,
                          env=environment(), timeout=120)
    assert done.returncode != 0
    assert "MainGuardError" in done.stderr and 'if __name__ == "__main__":' in done.stderr, done.stderr
    assert f"unguarded.py, line {guard + 1}" in done.stderr, done.stderr
    assert "bootstrapping" not in done.stderr and "Restarting worker" not in done.stderr
    assert time.monotonic() - started < 30
    assert not (tmp_path / "pairs").exists()


@pytest.mark.parametrize("option, value", [("--eps", "inf"), ("--eps", "nan"), ("--eps", "-0.5"), ("--k", "-2"),
                                           ("--k", "0"), ("--partition-bytes", "0"), ("--engine", "cpu-gird")])
def test_bad_options_exit_2_before_anything_starts(tmp_path, capsys, option, value):
    """In this process (the command's main), each refused before a cluster starts or a file is made."""
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as exited:
        command_main(["--input", str(tmp_path / "points-*.npy"), "--eps", "0.5", "--out", str(out), option, value])
    assert exited.value.code == 2
    stderr = capsys.readouterr().err
    assert_short_error(subprocess.CompletedProcess([], 2, "", stderr), 2,
                       option if option != "--engine" else "unknown engine 'cpu-gird'")
    assert not out.exists(), "a refused command created its output directory"


def test_bad_option_exits_2_as_a_command(tmp_path):
    done = command("--input", str(tmp_path / "points-*.npy"), "--eps", "inf", "--out", str(tmp_path / "out"))
    assert_short_error(done, 2, "--eps")


def test_out_a_file_exits_3(tmp_path, points):
    out = tmp_path / "out"
    out.write_bytes(b"a user's file")
    done = command("--scheduler", "local:1", "--input", str(tmp_path / "points-*.npy"), "--eps", "0.5",
                   "--out", str(out))
    assert_short_error(done, 3, str(out), "is a file")
    assert out.read_bytes() == b"a user's file"


def test_unreadable_input_exits_3(tmp_path, points):
    (tmp_path / "points-1.npy").write_bytes(b"not an npy header")
    done = command("--scheduler", "local:1", "--input", str(tmp_path / "points-*.npy"), "--eps", "0.5",
                   "--out", str(tmp_path / "out"))
    assert_short_error(done, 3, str(tmp_path / "points-1.npy"), "cannot be read")


def test_engine_the_workers_cannot_run_exits_4(tmp_path, points):
    unavailable = [e for e in simjoin.engines() if not e["available"]]
    if not unavailable:
        pytest.skip("every engine can run here (a GPU machine)")
    engine = unavailable[0]
    done = command("--scheduler", "local:1", "--input", str(tmp_path / "points-*.npy"), "--eps", "0.5",
                   "--out", str(tmp_path / "out"), "--engine", engine["name"])
    assert_short_error(done, 4, f"engine '{engine['name']}' cannot run", engine["reason"])
    assert not list((tmp_path / "out").iterdir())


def test_user_files_in_out_survive_every_run(tmp_path, points):
    out = tmp_path / "out"
    out.mkdir()
    user = np.arange(10).reshape(5, 2)
    np.save(out / USER_FILE, user)
    (out / "pairs-0.npy").write_bytes(b"also the user's")  # the name shards had before runs had ids
    glob = str(tmp_path / "points-*.npy")
    first = command("--scheduler", "local:1", "--input", glob, "--eps", "0.5", "--out", str(out))
    assert first.returncode == 0, first.stderr
    shards = [s["shard"] for s in sd.manifest.read(out)["shards"] if s["shard"]]
    assert shards and all((out / s).exists() for s in shards)
    counted = command("--scheduler", "local:1", "--input", glob, "--eps", "0.5", "--out", str(out), "--count-only")
    assert counted.returncode == 0, counted.stderr
    assert not any((out / s).exists() for s in shards), "the previous run's shards were kept"
    assert sorted(p.name for p in out.iterdir()) == sorted(["manifest.json", USER_FILE, "pairs-0.npy"])
    assert np.array_equal(np.load(out / USER_FILE), user)
    assert (out / "pairs-0.npy").read_bytes() == b"also the user's"


@pytest.mark.parametrize("signum, group", [(signal.SIGINT, False), (signal.SIGTERM, False), (signal.SIGINT, True)],
                         ids=["SIGINT", "SIGTERM", "Ctrl-C"])
def test_signal_mid_run_exits_130_and_leaves_no_shard(tmp_path, rng, signum, group):
    """The float64 brute force on 2 partitions of 100,000 points keeps both workers busy for seconds; the
    signal comes while they join, after the plan line: to the command, or (Ctrl-C in a terminal) to its
    whole process group, its worker processes too, which print nothing of it."""
    np.save(tmp_path / "points.npy", rng.uniform(0, 1, (200000, 3)))
    out = tmp_path / "out"
    out.mkdir()
    np.save(out / USER_FILE, np.ones((3, 2)))
    process = subprocess.Popen([sys.executable, "-m", "simjoin.distributed", "--scheduler", "local:2", "--input",
                                str(tmp_path / "points.npy"), "--eps", "0.004", "--k", "2", "--engine",
                                "cpu-bruteforce", "--out", str(out)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=environment(), start_new_session=group)
    try:
        line = process.stdout.readline()
        assert line.startswith("plan: "), line + process.stderr.read()
        time.sleep(1.0)
        assert process.poll() is None, "the run ended before the signal"
        signalled = time.monotonic()
        if group:
            os.killpg(process.pid, signum)
        else:
            process.send_signal(signum)
        stderr = process.communicate(timeout=60)[1]
    finally:
        if process.poll() is None:
            process.kill()
    stopped = time.monotonic() - signalled
    assert process.returncode == 130, (process.returncode, stderr[-2000:])
    assert "Traceback" not in stderr and "interrupted" in stderr, stderr[-2000:]
    assert sorted(p.name for p in out.iterdir()) == [USER_FILE], "shards or temporaries left behind"
    print(f"stopped {stopped:.1f} s after the signal")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def docs_commands():
    """docs/distributed.md's `dask scheduler` and `dask worker` commands for one machine, as argument lists
    (the ports of the scheduler made free ones)."""
    block = re.search(r"```sh\nexport PYTHONPATH[^\n]*\n(.*?)```", DOCS.read_text(), re.S).group(1)
    text = block.replace("\\\n", " ").replace("&", "")
    scheduler, worker = (line.split() for line in text.splitlines() if line.startswith("dask "))
    return scheduler, worker


def test_manual_commands_listen_on_loopback(tmp_path, rng):
    scheduler, worker = docs_commands()
    port, http = free_port(), free_port()
    scheduler = [w.replace("8786", str(port)).replace("8787", str(http)) for w in scheduler]
    worker = [w.replace("8786", str(port)) for w in worker]
    worker[worker.index("--nworkers") + 1] = "2"  # the docs' 3, one fewer for a 2-core machine
    started = [subprocess.Popen(scheduler, env=environment(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)]
    try:
        time.sleep(2)
        started.append(subprocess.Popen(worker, env=environment(), stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True))
        X = rng.uniform(0, 20, (2000, 3))
        np.save(tmp_path / "points.npy", X)
        done = command("--scheduler", f"tcp://127.0.0.1:{port}", "--input", str(tmp_path / "points.npy"),
                       "--eps", "0.5", "--out", str(tmp_path / "out"))
        assert done.returncode == 0, done.stderr
        assert np.array_equal(sorted_pairs(sd.read_pairs(tmp_path / "out").compute()), self_pairs(X, 0.5))
        processes = [psutil.Process(p.pid) for p in started]
        processes += [child for p in processes for child in p.children(recursive=True)]
        listening = [(p.pid, c.laddr) for p in processes for c in p.connections(kind="inet")
                     if c.status == psutil.CONN_LISTEN]
        assert len(listening) >= 2 + 2 * 3, listening  # the scheduler's two, three per worker (with its nanny)
        assert all(address.ip in ("127.0.0.1", "::1") for _, address in listening), listening
    finally:
        for process in reversed(started):
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=30)
