"""python3 -m simjoin.distributed: a distributed join from the command line, with the exit codes of
`simjoin` (2 bad options, 3 bad input naming the file, 4 a partition no worker has the memory for,
130 interrupted)."""
import argparse
import sys

import distributed

from .cluster import connect, local_cluster, tls_security
from .errors import InputError, PartitionTooLargeError
from .join import join


def parser():
    p = argparse.ArgumentParser(prog="python3 -m simjoin.distributed",
                                description="The exact epsilon-similarity join on a Dask cluster.")
    p.add_argument("--scheduler", default="local",
                   help="tcp:// or tls:// address of a running scheduler, or local:N for N worker processes "
                        "here (default: local, one per core)")
    p.add_argument("--input", required=True, action="append", help=".npy file or glob (repeatable)")
    p.add_argument("--input-b", action="append", help="B of A join B: .npy file or glob (repeatable)")
    p.add_argument("--eps", required=True, type=float)
    p.add_argument("--out", required=True, help="directory of the shards and manifest.json")
    p.add_argument("--count-only", action="store_true", help="count the pairs, write no shards")
    p.add_argument("--k", type=int, help="partitions (default: from the workers' memory and cores)")
    p.add_argument("--engine", default="auto", help="engine of each partition task (default: auto)")
    p.add_argument("--partition-bytes", type=int, help="memory one partition task may use")
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
        cluster = local_cluster(int(workers) if workers else None, args.memory_limit, args.dashboard)
        return distributed.Client(cluster), cluster
    if args.scheduler.startswith("tls://") and not all(tls):
        fail("a tls:// scheduler needs --tls-ca-file, --tls-cert and --tls-key")
    try:
        return connect(args.scheduler, tls_security(*tls) if all(tls) else None), None
    except OSError as error:
        fail(f"cannot reach the scheduler at {args.scheduler}: {error}")


def main(argv=None):
    p = parser()
    args = p.parse_args(argv)
    if not args.eps >= 0:
        p.error(f"--eps must be >= 0; got {args.eps}")
    try:
        client, cluster = _client(args, p.error)
        try:
            manifest = join(args.input, args.eps, Y=args.input_b, client=client, out=args.out,
                            output="count" if args.count_only else "pairs", k=args.k, engine=args.engine,
                            partition_bytes=args.partition_bytes)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    except InputError as error:
        print(f"simjoin.distributed: {error}", file=sys.stderr)
        return 3
    except (PartitionTooLargeError, MemoryError) as error:
        print(f"simjoin.distributed: {error}", file=sys.stderr)
        return 4
    except KeyboardInterrupt:
        print("simjoin.distributed: interrupted", file=sys.stderr)
        return 130
    print(f"{manifest['pairs']} pairs in {manifest['times']['total_seconds']:.2f} s; "
          f"manifest: {args.out}/manifest.json")
    return 0
