"""The PEP 517 build backend of `pip install .` (pyproject.toml names it): CMake builds the
`migsim_python` target alone, in Release, and the module goes into a wheel with its
metadata. Standard library only, so that pip needs no package to build it: a fresh
`python3 -m venv` (Debian's: pip and setuptools, no wheel) installs migsim with no package
index reachable. Editable installs and source distributions are not offered.

Environment read by the build:
  CMAKE_CXX_COMPILER_LAUNCHER  cmake's own default launcher; when it is not set at all, ccache
                               is used if it is on the PATH (set it empty to build without)
  MIGSIM_CMAKE_ARGS            more cmake arguments, as scripts/setup.sh takes them
  CMAKE_BUILD_PARALLEL_LEVEL   parallel compile jobs (default: every core)
"""

import base64
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile

NAME = "migsim"
SUMMARY = "A discrete-event simulator of Kubernetes GPU clusters (MIG, sharing, DRA)"
# ccache settings that let compilations with precompiled headers be cached (ccache's manual,
# "Precompiled headers"): without them every file of a target with one is uncacheable.
PCH_SLOPPINESS = ("pch_defines", "time_macros")


def _version():
    """The version of CMake's project() in the top CMakeLists.txt: the one place it is set."""
    with open("CMakeLists.txt", encoding="utf-8") as f:
        found = re.search(r"project\(\s*migsim\s+VERSION\s+([0-9.]+)", f.read())
    if not found:
        raise RuntimeError("CMakeLists.txt: no project(migsim VERSION x.y.z)")
    return found.group(1)


def _tag():
    """The wheel tag of the running interpreter, which the module is built for."""
    if sys.implementation.name != "cpython":
        raise RuntimeError(f"migsim's wheel is built for CPython, not {sys.implementation.name}")
    python = f"cp{sys.version_info.major}{sys.version_info.minor}"
    platform = re.sub(r"[-.]", "_", sysconfig.get_platform())
    return f"{python}-{python}{sys.abiflags}-{platform}"


def _dist_info():
    return f"{NAME}-{_version()}.dist-info"


def _metadata_files():
    """The .dist-info files but RECORD: name -> bytes."""
    metadata = (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {_version()}\n"
                f"Summary: {SUMMARY}\nRequires-Python: >=3.9\n")
    wheel = (f"Wheel-Version: 1.0\nGenerator: migsim sim/python/wheel_backend.py\n"
             f"Root-Is-Purelib: false\nTag: {_tag()}\n")
    return {"METADATA": metadata.encode(), "WHEEL": wheel.encode()}


def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    target = os.path.join(metadata_directory, _dist_info())
    os.makedirs(target, exist_ok=True)
    for name, content in _metadata_files().items():
        with open(os.path.join(target, name), "wb") as f:
            f.write(content)
    return _dist_info()


def _ccache_env(env):
    """The build's environment with ccache's settings for this tree, where not set already:
    paths relative to the checkout (a build directory beside build/ then compiles the same
    command lines as build/, so either reuses the other's objects) and precompiled headers
    cacheable."""
    env = dict(env)
    env.setdefault("CCACHE_BASEDIR", os.getcwd())
    if "CCACHE_SLOPPINESS" not in env:
        configured = subprocess.run(["ccache", "--get-config", "sloppiness"],
                                    capture_output=True, text=True, check=False).stdout
        items = [s for s in re.split(r"[,\s]+", configured) if s]
        env["CCACHE_SLOPPINESS"] = ",".join(items + [s for s in PCH_SLOPPINESS if s not in items])
    return env


def _cmake_arguments(build_dir):
    arguments = ["cmake", "-S", ".", "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                 "-DMIGSIM_BUILD_TESTS=OFF", "-DMIGSIM_BUILD_BENCH=OFF",
                 f"-DPython3_EXECUTABLE={sys.executable}"]
    if "CMAKE_CXX_COMPILER_LAUNCHER" not in os.environ and shutil.which("ccache"):
        arguments.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")  # else cmake reads it
    return arguments + shlex.split(os.environ.get("MIGSIM_CMAKE_ARGS", ""))


def _build_module(build_dir):
    """Configures and builds the module in build_dir; returns the module's path."""
    # ccache's settings only reach ccache: harmless where the launcher is something else.
    env = _ccache_env(os.environ) if shutil.which("ccache") else os.environ
    subprocess.run(_cmake_arguments(build_dir), check=True, env=env)
    build = ["cmake", "--build", build_dir, "--target", "migsim_python"]
    if "CMAKE_BUILD_PARALLEL_LEVEL" not in env:
        build += ["-j", str(os.cpu_count() or 1)]
    subprocess.run(build, check=True, env=env)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    module = os.path.join(build_dir, "python", NAME + suffix)
    if not os.path.isfile(module):
        raise RuntimeError(f"the build made no {module}: is pybind11-dev installed? (cmake "
                           "says 'migsim Python module: skipped' when it is not)")
    return module


def _record_line(name, content):
    digest = base64.urlsafe_b64encode(hashlib.sha256(content).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(content)}\n"


def _write_wheel(path, files):
    """A wheel holding files (name -> bytes) and their RECORD."""
    record_name = f"{_dist_info()}/RECORD"
    record = "".join(_record_line(name, content) for name, content in files.items())
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as wheel:
        for name, content in files.items():
            wheel.writestr(name, content)
        wheel.writestr(record_name, record + f"{record_name},,\n")


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    # A temporary build directory beside build/, so that ccache finds build/'s objects
    # (see _ccache_env); in the system's temporary directory when the checkout is read-only.
    try:
        build_dir = tempfile.mkdtemp(prefix="build-pip-", dir=os.getcwd())
    except OSError:
        build_dir = tempfile.mkdtemp(prefix="migsim-build-pip-")
    try:
        module = _build_module(build_dir)
        with open(module, "rb") as f:
            files = {os.path.basename(module): f.read()}
    finally:
        shutil.rmtree(build_dir, ignore_errors=True)
    for name, content in _metadata_files().items():
        files[f"{_dist_info()}/{name}"] = content
    wheel_name = f"{NAME}-{_version()}-{_tag()}.whl"
    _write_wheel(os.path.join(wheel_directory, wheel_name), files)
    return wheel_name
