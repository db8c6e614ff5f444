"""The errors of simjoin.distributed, each with the exit code of the `simjoin` command it maps to
(python3 -m simjoin.distributed exits with it)."""


class InputError(ValueError):
    """Input that cannot be joined: unreadable, not finite, of another dimension. The message names
    the shard (file or array rows). Exit code 3."""


class OutputError(InputError):
    """An output directory that cannot be written: a file of that name, no permission. Exit code 3."""


class EngineUnavailableError(RuntimeError):
    """The engine exists but cannot run on the workers (a GPU engine without a GPU). Exit code 4."""


class MainGuardError(RuntimeError):
    """A script that starts worker processes without the `if __name__ == "__main__":` guard, which
    each worker process would run again. Raised before any process starts."""
