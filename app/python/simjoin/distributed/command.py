"""python3 -m simjoin.distributed: a distributed join from the command line, with the exit codes of
`simjoin`: 2 bad options (an unknown engine among them, refused before anything starts), 3 bad input
naming the file, or an output directory that cannot be written, 4 out of resources (a partition no
worker has the memory for, an engine the workers cannot run such as a GPU engine without a GPU), 130
interrupted by SIGINT or SIGTERM, with the run's shards removed. Errors are one line, no traceback."""
import argparse
import logging
import os
import signal
import sys

import distributed

from .. import checked_eps
from .._simjoin import EPS_RULE
from .cluster import connect, local_cluster, tls_security
from .errors import EngineUnavailableError, InputError, OutputError
from .join import check_parameters, join

EXIT_USAGE, EXIT_INPUT, EXIT_RESOURCES, EXIT_CANCELLED = 2, 3, 4, 130


def _eps(text):
    """--eps by the rule of every program, refused in its words: "argument --eps: must be ..."."""
    try:
        return checked_eps(text)
    except ValueError:
        raise argparse.ArgumentTypeError(EPS_RULE) from None


def _positive(text):
    value = int(text)
    if value < 1:
        raise ValueError(text)
    return value


_positive.__name__ = "positive integer"


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        """One line and a hint, as simjoin's parser says it, and exit 2."""
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\nRun with --help for more information.\n")


def parser():
    p = _Parser(prog="python3 -m simjoin.distributed",
                description="The exact epsilon-similarity join on a Dask cluster.")
    p.add_argument("--scheduler", default="local",
                   help="tcp:// or tls:// address of a running scheduler, or local:N for N worker processes "
                        "here (default: local, one per core)")
    p.add_argument("--input", required=True, action="append", help=".npy file or glob (repeatable)")
    p.add_argument("--input-b", action="append", help="B of A join B: .npy file or glob (repeatable)")
    p.add_argument("--eps", required=True, type=_eps, help="join radius: a finite number >= 0 (0: the exact duplicates)")
    p.add_argument("--out", required=True, help="directory of the shards and manifest.json")
    p.add_argument("--count-only", action="store_true", help="count the pairs, write no shards")
    p.add_argument("--k", type=_positive, help="partitions (default: from the workers' memory and cores)")
    p.add_argument("--engine", default="auto", help="engine of each partition task (default: auto)")
    p.add_argument("--partition-bytes", type=_positive, help="memory one partition task may use")
    p.add_argument("--memory-limit", default="auto", help="local:N only: memory limit of each worker, e.g. 2GB")
    p.add_argument("--dashboard", help="local:N only: serve Dask's dashboard at this address, e.g. 127.0.0.1:8787")
    p.add_argument("--tls-ca-file", help="TLS: the certificate authority the cluster trusts")
    p.add_argument("--tls-cert", help="TLS: this client's certificate")
    p.add_argument("--tls-key", help="TLS: this client's private key")
    return p


def _client(args, fail):
    tls = [args.tls_ca_file, args.tls_cert, args.tls_key]
    if any(tls) and not all(tls):
        fail("--tls-ca-file, --tls-cert and --tls-key go together")
    if args.scheduler == "local" or args.scheduler.startswith("local:"):
        if any(tls):
            fail("TLS options are for a remote scheduler; a local cluster listens on 127.0.0.1 only")
        workers = args.scheduler.partition(":")[2]
        if workers and not (workers.isdigit() and int(workers) > 0):
            fail(f"--scheduler local:N needs a positive N; got {args.scheduler!r}")
        cluster = local_cluster(int(workers) if workers else None, args.memory_limit, args.dashboard,
                                preload=["simjoin.distributed.worker_signals"])
        return distributed.Client(cluster), cluster
    if args.scheduler.startswith("tls://") and not all(tls):
        fail("a tls:// scheduler needs --tls-ca-file, --tls-cert and --tls-key")
    try:
        return connect(args.scheduler, tls_security(*tls) if all(tls) else None), None
    except OSError as error:
        fail(f"cannot reach the scheduler at {args.scheduler}: {error}")


def _interrupt(signum, frame):
    """The first SIGINT or SIGTERM stops the run; the clean-up that follows is not interrupted again."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    # What Dask and asyncio say while their tasks are cancelled and the cluster stops is not an error.
    for name in ("distributed", "asyncio"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    raise KeyboardInterrupt


def _join(args, fail):
    client, cluster = _client(args, fail)
    try:
        return join(args.input, args.eps, Y=args.input_b, client=client, out=args.out,
                    output="count" if args.count_only else "pairs", k=args.k, engine=args.engine,
                    partition_bytes=args.partition_bytes)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def run(args, fail):
    """The exit code of the run, with a one-line message for a failure."""
    def refuse(code, error):
        print(f"simjoin.distributed: error: {error}", file=sys.stderr)
        return code
    try:
        if os.path.exists(args.out) and not os.path.isdir(args.out):
            raise OutputError(f"{args.out}: is a file, not a directory for the shards and manifest.json")
        manifest = _join(args, fail)
    except KeyboardInterrupt:
        return refuse(EXIT_CANCELLED, "interrupted; the run's shards were removed")
    except InputError as error:  # OutputError too
        return refuse(EXIT_INPUT, error)
    except (MemoryError, EngineUnavailableError) as error:
        return refuse(EXIT_RESOURCES, error)
    except ValueError as error:
        return refuse(EXIT_USAGE, error)
    except Exception as error:  # a lost scheduler, a worker's failure: said in one line, no traceback
        return refuse(1, f"{type(error).__name__}: {error}")
    print(f"{manifest['pairs']} pairs in {manifest['times']['total_seconds']:.2f} s; "
          f"manifest: {os.path.join(args.out, 'manifest.json')}")
    return 0


def main(argv=None):
    p = parser()
    args = p.parse_args(argv)  # exits 2 for bad options
    try:
        check_parameters(args.eps, "count" if args.count_only else "pairs", args.k, args.engine,
                         args.partition_bytes, bool(args.input_b))
    except ValueError as error:
        p.error(str(error))
    # Dask's own warnings (a task's failure, workers starting and stopping) are not the command's output:
    # here and, through the environment, in the worker processes of a local cluster.
    logging.getLogger("distributed").setLevel(logging.ERROR)
    os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "error")
    handlers = {s: signal.signal(s, _interrupt) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        return run(args, p.error)
    finally:
        for number, handler in handlers.items():
            signal.signal(number, handler)
