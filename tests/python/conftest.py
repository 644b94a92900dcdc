"""Fixtures of the Python suite (run by ctest as python_pytest): the `varsim` binary of the same build, to compare
the module's numbers with the CLI's CSV."""
import os
import subprocess

import pytest

import varsim

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Cli:
    def __init__(self, binary, tmp):
        self.binary, self.tmp = binary, tmp

    def run(self, *args):
        """(exit code, stderr) of `varsim ARGS`."""
        p = subprocess.run([self.binary, *args], cwd=ROOT, capture_output=True, text=True)
        return p.returncode, p.stderr

    def csv(self, *args):
        """The CSV `varsim ARGS --csv FILE` writes, parsed into a dict of arrays (exit code must be 0)."""
        path = os.path.join(self.tmp, "out.csv")
        code, err = self.run(*args, "--csv", path)
        assert code == 0, err
        with open(path) as f:
            return varsim.csv_table(f.read())


@pytest.fixture
def cli(tmp_path):
    binary = os.environ.get("VARSIM_BIN")
    if not binary:
        pytest.skip("VARSIM_BIN (the varsim binary) not set")
    return Cli(binary, str(tmp_path))


def assert_same_table(a, b):
    """Same columns in the same order and the same bits in every cell."""
    assert list(a) == list(b)
    for k in a:
        assert a[k].dtype == b[k].dtype, k
        assert a[k].shape == b[k].shape, k
        assert a[k].tobytes() == b[k].tobytes(), k
