#!/usr/bin/env python3
"""The fair-share figure of HTCondor's "User Priorities and Negotiation",
with caracara's own negotiator, accountant, schedd and startds in virtual
time:

  "Assume two users with no history, named A and B, using a pool with 100
  cores ... both users have an equal priority factor of 1.0. User A
  submits a very large number of short-running jobs at time t = 0. User B
  waits until 48 hours later, and also submits an infinite number of short
  jobs."

A has the whole pool for 48 hours (RUP about 75), B arrives with the best
priority (0.5) and takes nearly all of it, then the two converge on half
each. Prints one row per hour; --csv FILE writes them too.

  PYTHONPATH=<caracara build>/python python3 examples/python/fair_share.py
"""
import argparse
import csv
import sys

import caracara

HOUR = 3600
JOBS = "executable = /bin/true\n+SimulatedRunTime = $RANDOM_INTEGER(3600, 7200, 60)\nqueue {n}\n"


def fair_share(hours, seed):
    pool = caracara.VirtualPool(
        common="UID_DOMAIN = sim\nPRIORITY_HALFLIFE = 86400\nDEFAULT_PRIO_FACTOR = 1.0\n"
               # A cycle at most every ten minutes: the figure spans days.
               "NEGOTIATOR_INTERVAL = 600\nNEGOTIATOR_MIN_INTERVAL = 600\n",
        machines=[(f"ep{i}", "NUM_CPUS = 1\n") for i in range(1, 101)],
        seed=seed)
    running = {"a@sim": 0, "b@sim": 0}

    def count(event):
        if event.kind == caracara.EventKind.Started:
            running[event.submitter] += 1
        elif event.kind in (caracara.EventKind.Finished, caracara.EventKind.Killed):
            running[event.submitter] -= 1

    pool.on_event(count)
    pool.submit("a", JOBS.format(n=6000))
    rows = []
    for hour in range(1, hours + 1):
        if hour == 49:
            pool.submit("b", JOBS.format(n=4000))
        pool.advance(HOUR)
        prio = {p.name: p.real_priority for p in pool.priorities()}
        rows.append({"hour": hour, "a_running": running["a@sim"], "b_running": running["b@sim"],
                     "a_rup": round(prio.get("a@sim", 0.5), 3), "b_rup": round(prio.get("b@sim", 0.5), 3)})
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hours", type=int, default=96, help="how long to run (default 96)")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the job durations")
    parser.add_argument("--csv", help="also write the rows to this CSV file")
    args = parser.parse_args()
    rows = fair_share(args.hours, args.seed)
    print(f"{'hour':>5} {'A running':>10} {'B running':>10} {'A RUP':>9} {'B RUP':>9}")
    for r in rows:
        print(f"{r['hour']:>5} {r['a_running']:>10} {r['b_running']:>10} {r['a_rup']:>9.3f} {r['b_rup']:>9.3f}")
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
