"""Worker processes that start cleanly from scripts, standard input and notebooks.

Dask starts its worker processes with Python's spawn method, and each imports the main module again:
a script whose call to simjoin.distributed is not under `if __name__ == "__main__":` would start a
cluster from every worker, which Python refuses, and Dask restarts the workers without end. So the
call is checked first, from the script's own text, and refused at once with what to write. Code read
from standard input or `-c` has a main module with a file name that is no file; the workers would
fail to read it, again without end, so that name is dropped (the workers then import nothing of it,
as for a notebook)."""
import ast
import os
import sys

from .errors import MainGuardError

MESSAGE = ("{script}, line {line}: simjoin.distributed starts worker processes, and each of them runs "
           "this script again; put the code that calls it under `if __name__ == \"__main__\":` "
           "(docs/distributed.md, \"In a script\")")


def _is_main_test(test):
    """`__name__ == "__main__"`, either way round."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = [test.left, test.comparators[0]]
    names = [s.id for s in sides if isinstance(s, ast.Name)]
    values = [s.value for s in sides if isinstance(s, ast.Constant)]
    return names == ["__name__"] and values == ["__main__"]


def _guarded(tree, line):
    """Whether line `line` of the module lies inside an `if __name__ == "__main__":` block (its body)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_main_test(node.test) and node.body:
            if node.body[0].lineno <= line <= max(getattr(n, "end_lineno", n.lineno) for n in node.body):
                return True
    return False


def _main_module_line(main):
    """The line of the main module's top level that led to this call, or None (a REPL, a thread)."""
    frame = sys._getframe(1)
    line = None
    while frame is not None:
        if frame.f_globals is vars(main) and frame.f_code.co_name == "<module>":
            line = frame.f_lineno
        frame = frame.f_back
    return line


def check():
    """Raises MainGuardError where the main module is a script that calls this at its top level without
    the guard; drops a main file name that is no file (standard input, -c)."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if main is None or path is None:
        return  # a notebook or the interactive interpreter: the workers import no main module
    spec = getattr(main, "__spec__", None)
    if spec is not None and spec.name.endswith(".__main__"):
        return  # python -m package: multiprocessing does not run a package's __main__ again
    if not os.path.isfile(path):
        del main.__file__  # "<stdin>", "-c": nothing the workers could import
        return
    line = _main_module_line(main)
    if line is None:
        return
    try:
        with open(path, encoding="utf-8") as file:
            tree = ast.parse(file.read(), path)
    except (OSError, SyntaxError, UnicodeDecodeError):
        return
    if not _guarded(tree, line):
        raise MainGuardError(MESSAGE.format(script=path, line=line))
