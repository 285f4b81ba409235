"""The package's types (PEP 561): the wheel ships `watergate/_engine.pyi`,
the stubs of the Rust extension, and `py.typed`; `mypy.stubtest` finds the
stubs true to the built module (every class, method, argument and
attribute, and nothing more), and code written as the README shows passes
`mypy --strict`. mypy is pinned in requirements-test.txt."""

import os
import pathlib
import runpy
import shutil
import subprocess
import sys

import watergate

TESTS = pathlib.Path(__file__).resolve().parent
SOURCE = TESTS.parent / "watergate"
INSTALLED = pathlib.Path(watergate.__file__).resolve().parent
EXAMPLE = TESTS / "typed_example.py"


def _python_m(args, cwd, **env):
    """`python -m ARGS` in `cwd`, an empty folder: `python -m` puts the
    working directory first on the path, where from python/ `watergate`
    would be the sources, without the built module; mypy's cache goes
    there too. MYPYPATH and PYTHONPATH only as given here."""
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


def test_the_package_s_own_annotations_pass_mypy_strict(tmp_path):
    """`watergate/__init__.py` against the stubs (the studies' annotations
    are what a caller is checked against). The other modules are left out:
    they import `pyspiel` or `ray`, which have no types."""
    out = _python_m(["mypy", "--strict", str(SOURCE / "__init__.py")], tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr


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
