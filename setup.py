"""The build step of `pip install .` (pyproject.toml): configures the project's CMake without the GUI,
VTK or tests, builds only the module's target (simjoin_python) and copies the package CMake lays out
(build/python/simjoin: the Python files, the extension, its stub and py.typed) into the wheel.

Environment: SIMJOIN_CMAKE_ARGS, more -D options (e.g. "-DSIMJOIN_CUDA=OFF"); SIMJOIN_BUILD_DIR, a build
folder to use, which is configured only if it has no CMakeCache.txt yet (an existing build of the
project is then only brought up to date, for the module's target)."""
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


class CMakeBuild(build_ext):
    def run(self):
        build = Path(os.environ.get("SIMJOIN_BUILD_DIR") or Path(self.build_temp).resolve() / "cmake")
        if not (build / "CMakeCache.txt").exists():
            generator = ["-G", "Ninja"] if shutil.which("ninja") else []
            launcher = ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"] if shutil.which("ccache") else []
            subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), *generator, "-DCMAKE_BUILD_TYPE=Release",
                            "-DSIMJOIN_GUI=OFF", "-DSIMJOIN_VTK=OFF", "-DSIMJOIN_TESTS=OFF",
                            f"-DPython3_EXECUTABLE={sys.executable}", *launcher,
                            *shlex.split(os.environ.get("SIMJOIN_CMAKE_ARGS", ""))], check=True)
        subprocess.run(["cmake", "--build", str(build), "--target", "simjoin_python", "-j", str(os.cpu_count() or 1)],
                       check=True)
        package = build / "python" / "simjoin"
        if not list(package.glob("_simjoin*.so")):
            sys.exit(f"{build}: the module was not built (pybind11 or the Python headers missing?)")
        target = Path(self.build_lib) / "simjoin"
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(package, target, ignore=shutil.ignore_patterns("__pycache__"))


# setuptools' own folders under build/ (ignored by git), beside the CMake build folders.
setup(ext_modules=[Extension("simjoin._simjoin", sources=[])], cmdclass={"build_ext": CMakeBuild},
      options={"build": {"build_base": str(ROOT / "build" / "setuptools")}})
