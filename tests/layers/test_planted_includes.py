#!/usr/bin/env python3
"""Plants each wrong include in a source of the layer it would cross from, and expects the walls to
refuse it (docs/ARCHITECTURE.md, "Walls"):

- the compiler: the planted source is compiled with the compile command of a real source of that
  layer (compile_commands.json), in that source's folder, and must fail on the include;
- scripts/check-layers, which must flag it as if the planted source were that layer's.

check-layers' test of folders that include each other around a circle is given such a circle too.

The "ui" layer's source is a view (ui/views/), so its planted includes also test the rooms of ui/.

An include relative to the including file ("../ui/x.hpp") is found before any include root, so the
compiler cannot refuse it: check-layers alone does, and the build runs check-layers before it
compiles. A control include the layer may use must compile with the same command, so that a broken
command cannot pass for a wall.

  test_planted_includes.py BUILD_DIR
"""
import importlib.machinery
import json
import pathlib
import shlex
import subprocess
import sys
import tempfile
import types

ROOT = pathlib.Path(__file__).resolve().parents[2]
CHECK_LAYERS = ROOT / "scripts" / "check-layers"

# (a real source of the layer, whose compile command is borrowed; an include it may use).
LAYERS = {
    "core": ("core/points/pca.cpp", '"core/base/error.hpp"'),
    "cuda": ("cuda/devices/describe_machine.cpp", '"cuda/gpu_engines.hpp"'),
    "ui/run": ("ui/run/run_staleness.cpp", "<QString>"),
    "ui": ("ui/views/grid_layers.cpp", '"ui/run/run_controller.hpp"'),
    "app/cli": ("app/cli/cmd_info.cpp", '"cuda/gpu_engines.hpp"'),
    "app/python": ("app/python/partition_plan.cpp", '"core/engines/kmeans_placement.hpp"'),
    "app/sweep": ("app/sweep/main.cpp", '"ui/charts/sweep_chart.hpp"'),
    "app/registry": ("app/registry/every_engine.cpp", '"cuda/gpu_engines.hpp"'),
    "ui/step_through": ("ui/step_through/step_through_tab.cpp", '"ui/workbench/workbench.hpp"'),
}

# (layer, planted include, whether the compiler refuses it: False where it cannot, see above).
PLANTED = [
    ("core", '"ui/run/run_request.hpp"', True),
    ("core", "<ui/run/run_request.hpp>", True),
    ("core", '"core/../ui/run/run_request.hpp"', True),
    ("core", '"../../ui/run/run_request.hpp"', False),
    ("core", '"../vtkio/vtk_points.hpp"', False),
    ("core", '"cuda/gpu_engines.hpp"', True),
    ("core", '"core/vtkio/vtk_points.hpp"', True),
    ("core", '"tests/core/oracle_check.hpp"', True),
    ("core", "<QString>", True),
    ("cuda", '"ui/run/run_request.hpp"', True),
    ("ui/run", "<cuda_runtime.h>", True),
    ("ui/run", "<QWidget>", True),
    ("ui/run", "<QtWidgets/QWidget>", False),  # Qt Core's include root holds QtWidgets/ too
    ("ui/run", '"ui/export/run_export.hpp"', True),
    ("ui", '"cuda/gpu_engines.hpp"', True),
    ("ui", '"cuda/detail/gpu_engine.hpp"', True),
    ("ui", "<cuda_runtime.h>", True),
    ("ui", '"app/cli/join_options.hpp"', True),
    ("app/cli", "<cuda_runtime.h>", True),
    ("app/cli", '"ui/charts/sweep_chart.hpp"', True),
    ("app/cli", '"cuda/engines/gpu_grid.hpp"', True),
    ("app/cli", "<QString>", True),
    ("app/sweep", "<cuda_runtime.h>", True),
    ("app/sweep", '"ui/main_window.hpp"', True),
    ("app/sweep", '"ui/views/view_layers.hpp"', True),
    ("app/sweep", '"cuda/detail/gpu_engine.hpp"', True),
    ("app/sweep", '"tests/core/oracle_check.hpp"', True),
    # core's private side: the engines' building blocks (core/engines/detail/), from every layer above.
    ("cuda", '"core/engines/detail/epsilon_grid.hpp"', True),
    ("ui", '"core/engines/detail/grid_join.hpp"', True),
    ("ui", '"../../core/engines/detail/point_rows.hpp"', False),
    ("ui/step_through", '"core/engines/detail/grid_join.hpp"', True),
    ("app/cli", '"core/engines/detail/grid_cost.hpp"', True),
    ("app/sweep", '"core/engines/detail/point_rows.hpp"', True),
    ("app/python", '"core/engines/detail/point_rows.hpp"', True),
    ("app/registry", '"cuda/detail/gpu_resources.hpp"', True),
    ("app/registry", '"ui/run/run_request.hpp"', True),
    ("app/registry", "<QString>", True),
    ("ui", '"app/registry/every_engine.hpp"', True),
    ("core", '"app/registry/every_engine.hpp"', True),
    # Rooms of one library: check-layers alone.
    ("core", '"core/join/engine.hpp"', False),
    ("core", '"core/run/run_engine.hpp"', False),
    ("ui", '"ui/panels/parameters_panel.hpp"', False),
    ("ui/step_through", '"ui/main_window.hpp"', False),
    ("core", '"core/engines/detail/grid_join.hpp"', False),  # simjoin_core sees its private side
]


def borrowed_commands(build: pathlib.Path) -> dict[str, tuple[list[str], pathlib.Path]]:
    """Each layer's borrowed compile command, without its output and input, and its source's folder."""
    entries = {pathlib.Path(e["file"]).resolve(): e for e in json.loads((build / "compile_commands.json").read_text())}
    commands = {}
    for layer, (source, _) in LAYERS.items():
        entry = entries.get((ROOT / source).resolve())
        if entry is None:
            continue  # not built in this configuration (no GUI)
        words = shlex.split(entry["command"])
        kept, skip = [], False
        for word in words:
            if skip:
                skip = False
            elif word in ("-o", "-MF", "-MT", "-c"):
                skip = True
            elif word != "-MD":
                kept.append(word)
        commands[layer] = (kept, (ROOT / source).parent)
    return commands


def compiles(command: list[str], folder: pathlib.Path, include: str) -> tuple[bool, str]:
    """Compiles `#include <include>` from standard input in `folder`, as a file there would be."""
    source = f"#include {include}\nint planted_include_check;\n"
    result = subprocess.run(command + ["-fsyntax-only", "-x", "c++", "-"], input=source, cwd=folder,
                            capture_output=True, text=True)
    return result.returncode == 0, result.stderr


def flagged(layer_source: str, include: str, scratch: pathlib.Path) -> bool:
    planted = scratch / "planted.cpp"
    planted.write_text(f"#include {include}\n")
    as_path = str(pathlib.Path(layer_source).parent / "planted.cpp")
    result = subprocess.run([sys.executable, str(CHECK_LAYERS), "--as", as_path, str(planted)],
                            capture_output=True, text=True)
    return result.returncode == 1 and "planted.cpp:1:" in result.stdout


def circle_flagged() -> bool:
    """check-layers' circle test flags three folders that include each other around a circle, and not
    the same folders in a line."""
    loader = importlib.machinery.SourceFileLoader("check_layers", str(CHECK_LAYERS))
    check_layers = types.ModuleType(loader.name)
    check_layers.__file__ = str(CHECK_LAYERS)
    loader.exec_module(check_layers)
    line = {"core/a": {"core/b": "core/a/x.cpp:1"}, "core/b": {"core/c": "core/b/y.cpp:1"}}
    circle = dict(line, **{"core/c": {"core/a": "core/c/z.cpp:1"}})
    return len(check_layers.folder_cycles(circle)) == 1 and not check_layers.folder_cycles(line)


def main() -> int:
    commands = borrowed_commands(pathlib.Path(sys.argv[1]))
    failures, checked = [], 0
    for layer, (command, folder) in commands.items():
        ok, errors = compiles(command, folder, LAYERS[layer][1])
        if not ok:
            failures.append(f"{layer}: the control {LAYERS[layer][1]} does not compile:\n{errors[-800:]}")
    if not circle_flagged():
        failures.append("check-layers passes folders that include each other around a circle")
    with tempfile.TemporaryDirectory() as scratch:
        for layer, include, compiler_refuses in PLANTED:
            source = LAYERS[layer][0]
            if not flagged(source, include, pathlib.Path(scratch)):
                failures.append(f"{layer}: check-layers passes #include {include}")
            if layer not in commands:
                continue
            checked += 1
            ok, errors = compiles(*commands[layer], include)
            if compiler_refuses and (ok or "No such file or directory" not in errors):
                failures.append(f"{layer}: the compiler does not refuse #include {include} "
                                f"({'it compiles' if ok else errors[-400:]})")
            if not compiler_refuses and not ok:
                failures.append(f"{layer}: #include {include} no longer compiles: the compiler refuses it "
                                "now, mark it so in PLANTED")
    for failure in failures:
        print(failure)
    skipped = len(PLANTED) - checked
    print(f"{len(PLANTED)} planted includes flagged by check-layers; {checked} compiled"
          + (f", {skipped} not built here" if skipped else "") + f"; {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
