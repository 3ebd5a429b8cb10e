"""examples/python/fair_share.py reproduces the fair-share figure of "User
Priorities and Negotiation" (the numbers the C++ figure test checks from
scenarios/fair-share.scenario)."""
import csv
import os
import pathlib
import subprocess
import sys

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "python" / "fair_share.py"


def test_the_example_reproduces_the_fair_share_figure(tmp_path):
    out = tmp_path / "fair_share.csv"
    subprocess.run([sys.executable, str(EXAMPLE), "--csv", str(out)], check=True, env=os.environ,
                   stdout=subprocess.DEVNULL, timeout=900)
    rows = {int(r["hour"]): r for r in csv.DictReader(out.open())}
    at = lambda h, k: float(rows[h][k])
    # "At the beginning ... user A gets the whole pool": all of it after the
    # first cycle, nothing for B; later, cores whose jobs ended idle until
    # the next cycle (ten minutes apart here).
    assert at(1, "a_running") == 100
    assert all(at(h, "b_running") == 0 for h in range(1, 49))
    assert all(at(h, "a_running") >= 80 for h in range(1, 49))
    # "user A's RUP should be about 75.0 at the 48 hour mark, and User B
    # will still be the minimum of .5" (75.125 with every core busy).
    assert abs(at(48, "a_rup") - 75.125) < 0.01
    assert at(48, "b_rup") == 0.5
    # "User A's share drops from the whole pool to less than one core":
    # within two hours A holds at most a handful, then rebounds.
    assert at(50, "a_running") <= 5
    assert max(at(h, "a_running") for h in range(51, 97)) > at(50, "a_running")
    # "... and then over time, both users approach 50 cores each."
    assert abs(at(96, "a_running") - 50) <= 5
    assert abs(at(96, "b_running") - 50) <= 5
