"""The errors of simjoin.distributed, each with the exit code of the `simjoin` command it maps to."""


class InputError(ValueError):
    """Input that cannot be joined: unreadable, not finite, of another dimension. The message names
    the shard (file or array rows). Exit code 3."""


class PartitionTooLargeError(MemoryError):
    """A partition that no worker has the memory for, even after splitting it. Exit code 4."""
