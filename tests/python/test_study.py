"""varsim.study against `varsim study`: the same CSV numbers, independent of threads."""
import varsim
from conftest import assert_same_table


def test_study_equals_cli_csv(cli):
    expected = cli.csv("study", "fig4", "--runs", "2", "--seed", "7", "--threads", "1", "--duration", "8")
    got = varsim.study("fig4", runs=2, seed=7, threads=1, duration=8)
    assert_same_table(got, expected)
    assert_same_table(varsim.study("fig4", runs=2, seed=7, threads=2, duration=8), expected)


def test_study_bad_input():
    try:
        varsim.study("fig9")
    except varsim.BadInput as e:
        assert "fig9" in str(e)
    else:
        raise AssertionError("fig9 accepted")


def test_fig3_orbit_equals_cli_csv(cli):
    expected = cli.csv("study", "fig3", "--seed", "3", "--threads", "1", "--duration", "4")
    assert_same_table(varsim.study("fig3", seed=3, duration=4), expected)
