"""The package's types (PEP 561): the wheel ships `watergate/_engine.pyi`,
the stubs of the Rust extension, and `py.typed`; `mypy.stubtest` finds the
stubs true to the built module (every class, method, argument and
attribute, and nothing more; an exception class's bases, which it does not
compare, are compared here), every module of the package passes `mypy
--strict`, and so does code written as the README shows. mypy is pinned in
requirements-test.txt, from Python 3.10: below it, the mypy checks skip."""

import ast
import builtins
import importlib.util
import os
import pathlib
import re
import runpy
import shutil
import subprocess
import sys

import pytest

import watergate
from watergate import _engine

TESTS = pathlib.Path(__file__).resolve().parent
SOURCE = TESTS.parent / "watergate"
INSTALLED = pathlib.Path(watergate.__file__).resolve().parent
EXAMPLE = TESTS / "typed_example.py"
# The package's mypy configuration (pyproject.toml's [tool.mypy]): OpenSpiel
# and Ray as `Any`. It is not in the wheel, so it is given by path.
MYPY_CONFIG = TESTS.parent / "pyproject.toml"

MYPY_FLOOR = (3, 10)


def _need_mypy(installed, version):
    """Skips a mypy check only where mypy cannot be installed: mypy 2.4
    needs Python 3.10 (requirements-test.txt installs it only there), and
    the package supports 3.9. From 3.10 on, a missing mypy fails."""
    if installed:
        return
    if tuple(version[:2]) < MYPY_FLOOR:
        pytest.skip(f"mypy (requirements-test.txt) needs Python "
                    f"{'.'.join(map(str, MYPY_FLOOR))} or later; this is "
                    f"{'.'.join(map(str, version[:3]))}")
    pytest.fail("mypy is not installed: pip install -r python/requirements-test.txt")


def _python_m(args, cwd, **env):
    """`python -m ARGS` in `cwd`, an empty folder: `python -m` puts the
    working directory first on the path, where from python/ `watergate`
    would be the sources, without the built module; mypy's cache goes
    there too. MYPYPATH and PYTHONPATH only as given here. Every call runs
    mypy: skipped, or failed, as `_need_mypy` says when it is missing."""
    _need_mypy(importlib.util.find_spec("mypy") is not None, sys.version_info)
    environ = {k: v for k, v in os.environ.items() if k not in ("MYPYPATH", "PYTHONPATH")}
    environ.update(env)
    return subprocess.run([sys.executable, "-m", *args], cwd=cwd, env=environ,
                          capture_output=True, text=True)


def test_the_installed_package_ships_the_stubs_and_the_marker():
    """maturin puts them in the wheel; the installed stubs are this
    checkout's (the other tests check the installed ones)."""
    for name in ("_engine.pyi", "py.typed"):
        assert (INSTALLED / name).is_file(), f"{name} is not in the installed package"
    assert (INSTALLED / "_engine.pyi").read_text() == (SOURCE / "_engine.pyi").read_text(), \
        "the installed stubs are not this checkout's: pip install ./python again"


# `--strict-type-check-only`: the stubs' own helper types (the dicts
# `cards()` and `hidden()` return) are marked as existing for the type
# checker only. No allowlist: everything the module exports can be written
# in the stubs as it is.
STUBTEST = ["mypy.stubtest", "--strict-type-check-only", "watergate._engine"]


def test_the_stubs_match_the_built_module(tmp_path):
    out = _python_m(STUBTEST, tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr


def test_stubtest_refuses_a_stub_that_is_wrong(tmp_path):
    """The check has teeth: the same stubs with a method left out and an
    argument misnamed, put ahead of the installed ones (MYPYPATH), fail."""
    stubs = tmp_path / "stubs" / "watergate"
    stubs.mkdir(parents=True)
    for name in ("__init__.py", "py.typed"):
        shutil.copy(INSTALLED / name, stubs / name)
    text = (INSTALLED / "_engine.pyi").read_text()
    wrong = (text.replace("    def clone(self) -> Match: ...\n", "")
             .replace("def restore_match(bytes: bytes)", "def restore_match(data: bytes)"))
    assert wrong.count("\n") == text.count("\n") - 1 and "restore_match(data" in wrong
    (stubs / "_engine.pyi").write_text(wrong)
    (tmp_path / "work").mkdir()
    out = _python_m(STUBTEST, tmp_path / "work", MYPYPATH=str(tmp_path / "stubs"))
    assert out.returncode != 0
    assert "watergate._engine.Match.clone is not present in stub" in out.stdout
    assert 'stub parameter "data" differs from runtime parameter "bytes"' in out.stdout


# The whole installed package, every module, with its configuration.
STRICT = ["mypy", "--strict", "--config-file", str(MYPY_CONFIG), "-p", "watergate"]


def test_the_whole_package_passes_mypy_strict(tmp_path):
    """Every module of the installed package (this checkout's: compared
    first) against the stubs; `pyspiel` and `ray` are `Any`."""
    modules = sorted(path.name for path in SOURCE.glob("*.py"))
    assert modules == sorted(path.name for path in INSTALLED.glob("*.py"))
    for name in modules:
        assert (INSTALLED / name).read_text() == (SOURCE / name).read_text(), \
            f"the installed {name} is not this checkout's: pip install ./python again"
    out = _python_m(STRICT, tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"no issues found in {len(modules) + 1} source files" in out.stdout


def test_mypy_strict_refuses_an_unannotated_function_in_any_module(tmp_path):
    """The check has teeth, in every module: the package copied ahead of the
    installed one (MYPYPATH), each module with an unannotated function."""
    copy = tmp_path / "copy" / "watergate"
    shutil.copytree(INSTALLED, copy, ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    modules = sorted(path.name for path in copy.glob("*.py") if path.name != "__init__.py")
    assert {"openspiel.py", "bots.py", "cluster.py", "strength.py"} <= set(modules)
    for name in ["__init__.py", *modules]:
        with open(copy / name, "a") as f:
            f.write("\n\ndef _unannotated(x):\n    return x\n")
    (tmp_path / "work").mkdir()
    out = _python_m(STRICT, tmp_path / "work", MYPYPATH=str(tmp_path / "copy"))
    assert out.returncode != 0
    refused = {pathlib.Path(line.split(":")[0]).name for line in out.stdout.splitlines()
               if "error: Function is missing a type annotation" in line}
    assert refused == {"__init__.py", *modules}, out.stdout


def test_code_written_as_the_readme_shows_passes_mypy_strict_and_runs(tmp_path):
    """typed_example.py passes `mypy --strict` (at the oldest Python mypy
    checks for) and runs; code that misuses the types is refused, so they
    are not `Any`."""
    out = _python_m(["mypy", "--strict", "--python-version", "3.10", str(EXAMPLE)], tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    runpy.run_path(str(EXAMPLE), run_name="__main__")
    wrong = tmp_path / "wrong.py"
    wrong.write_text(
        "import watergate\n"
        "game = watergate.load(data=1)\n"
        "name: int = game.name\n"
        "watergate.Match(game).apply_action('pass')\n"
        "watergate.simulate(games=10, editor=None)\n")
    out = _python_m(["mypy", "--strict", str(wrong)], tmp_path)
    errors = [line for line in out.stdout.splitlines() if ": error:" in line]
    assert [line.split(":")[1] for line in errors] == ["2", "3", "4", "5"], out.stdout


def test_mypy_is_skipped_only_below_python_3_10_and_installed_from_there():
    """mypy 2.4 needs Python 3.10: requirements-test.txt (and the `test`
    extra) install it from 3.10 only, and the mypy checks skip only where
    it is missing below 3.10; missing from 3.10 on, they fail."""
    pins = (TESTS.parent / "requirements-test.txt").read_text().splitlines()
    assert [line for line in pins if line.startswith("mypy")] == \
        ['mypy==2.4.1; python_version >= "3.10"']
    pyproject = MYPY_CONFIG.read_text()
    assert "\"mypy>=2.4; python_version >= '3.10'\"" in pyproject
    with pytest.raises(pytest.skip.Exception, match="needs Python 3.10 or later; this is 3.9.18"):
        _need_mypy(False, (3, 9, 18, "final", 0))
    for version in ((3, 10, 0), (3, 13, 1)):
        with pytest.raises(pytest.fail.Exception, match="mypy is not installed"):
            _need_mypy(False, version)
    for version in ((3, 9, 18), (3, 11, 7)):
        _need_mypy(True, version)


def _exception_bases(stubs, module):
    """Each exception class the stubs declare, with its bases as the stubs
    name them and as `module` has them, where the two differ. stubtest
    does not compare a class's bases: `class DataError(ValueError)` passed
    it, and `except ValueError` did not catch the runtime's DataError."""
    classes = {node.name: node for node in ast.parse(stubs).body if isinstance(node, ast.ClassDef)}

    def runtime(name):
        return getattr(module, name) if name in classes else getattr(builtins, name)

    def names(node):
        return [ast.unparse(base).removeprefix("builtins.") for base in node.bases]

    def is_exception(node):
        for base in names(node):
            if base in classes:
                if is_exception(classes[base]):
                    return True
            elif isinstance(getattr(builtins, base, None), type) \
                    and issubclass(getattr(builtins, base), BaseException):
                return True
        return False

    checked, wrong = [], []
    for name, node in classes.items():
        if is_exception(node):
            checked.append(name)
            stub = names(node)
            have = [base.__name__ for base in getattr(module, name).__bases__]
            if [runtime(base) for base in stub] != list(getattr(module, name).__bases__):
                wrong.append((name, stub, have))
    return checked, wrong


def test_every_exception_class_has_the_stubs_bases():
    stubs = (INSTALLED / "_engine.pyi").read_text()
    checked, wrong = _exception_bases(stubs, _engine)
    assert "DataError" in checked
    assert wrong == []


def test_an_exception_class_with_another_base_in_the_stubs_is_refused():
    """The check has teeth: DataError declared a plain Exception, which at
    runtime it is not (it is a ValueError)."""
    stubs = (INSTALLED / "_engine.pyi").read_text()
    wrong = re.sub(r"^class DataError\(ValueError\):", "class DataError(Exception):", stubs,
                   flags=re.M)
    assert wrong != stubs
    assert _exception_bases(wrong, _engine)[1] == [("DataError", ["Exception"], ["ValueError"])]
