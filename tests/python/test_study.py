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


def test_shards_merge_to_the_unsharded_csv(cli, tmp_path):
    whole = tmp_path / "whole.csv"
    code, err = cli.run("study", "fig4", "--runs", "5", "--seed", "7", "--threads", "2", "--duration", "4",
                        "--csv", str(whole))
    assert code == 0, err
    parts = []
    for i in (1, 2, 3):
        part = tmp_path / ("part%d.csv" % i)
        code, err = cli.run("study", "fig4", "--runs", "5", "--seed", "7", "--threads", "1", "--duration", "4",
                            "--shard", "%d/3" % i, "--csv", str(part))
        assert code == 0, err
        parts.append(str(part))
        py = varsim.study("fig4", runs=5, seed=7, duration=4, shard=(i, 3))
        assert sorted(set(py["run"].astype(int) % 3)) == [i - 1]
    merged = tmp_path / "merged.csv"
    code, err = cli.run("study", "merge", parts[2], parts[0], parts[1], "--csv", str(merged))
    assert code == 0, err
    assert merged.read_bytes() == whole.read_bytes()
    code, err = cli.run("study", "merge", parts[0], parts[0], "--csv", str(merged))
    assert code == 2 and "row repeated" in err
    code, err = cli.run("study", "fig4", "--shard", "4/3")
    assert code == 2 and "--shard I" in err
