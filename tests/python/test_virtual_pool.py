"""`import caracara` (python/caracara_module.cpp): the virtual-time API as a
Python researcher uses it. Run by CTest (tests/CMakeLists.txt) with the
built module on PYTHONPATH."""
import pytest

import caracara

HOUR = 3600


def one_core_pool(n, central_manager=None):
    return caracara.VirtualPool(
        common="UID_DOMAIN = py\n",
        central_manager=central_manager,
        machines=[(f"ep{i}", "NUM_CPUS = 1\n") for i in range(1, n + 1)],
    )


def test_a_pool_runs_jobs_in_virtual_time_and_reports_events():
    pool = one_core_pool(2)
    events = []
    pool.on_event(events.append)
    ids = pool.submit("alice", "executable = /bin/true\n+SimulatedRunTime = 600\nqueue 3\n")
    assert ids == ["1.0", "1.1", "1.2"]
    assert pool.jobs().idle == 3
    start = pool.now
    pool.advance(HOUR)
    assert pool.now == start + HOUR
    kinds = [e.kind for e in events]
    assert kinds.count(caracara.EventKind.Submitted) == 3
    assert kinds.count(caracara.EventKind.Started) == 3
    assert kinds.count(caracara.EventKind.Finished) == 3
    started = [e for e in events if e.kind == caracara.EventKind.Started]
    assert started[0].submitter == "alice@py"
    assert started[0].slot.endswith("@ep1") or started[0].slot.endswith("@ep2")
    assert started[0].time == start
    # Two slots: the third job starts when one of the first two ends.
    assert started[2].time >= start + 600
    finished = [e for e in events if e.kind == caracara.EventKind.Finished]
    assert all(f.time - s.time == 600 for s, f in zip(sorted(started, key=lambda e: e.job),
                                                       sorted(finished, key=lambda e: e.job)))
    assert "started" in repr(started[0])
    assert pool.jobs().idle == 0 and pool.jobs().running == 0
    assert pool.cores == 2


def test_a_new_user_on_100_cores_has_rup_75_125_after_48_hours():
    # user-priorities-and-negotiation: "a new user who consumes 100 cores
    # for 24 hours has a real user priority of 50.25 ... after 48 hours
    # 75.125" (PRIORITY_HALFLIFE one day, priorities start at 0.5).
    pool = caracara.VirtualPool(
        common="UID_DOMAIN = py\nNEGOTIATOR_INTERVAL = 600\nNEGOTIATOR_MIN_INTERVAL = 600\n",
        machines=[(f"ep{i}", "NUM_CPUS = 1\n") for i in range(1, 101)],
    )
    pool.submit("a", "executable = /bin/true\nqueue 100\n")  # they run until removed
    pool.advance(24 * HOUR)
    (a,) = pool.priorities()
    assert a.name == "a@py"
    assert a.real_priority == pytest.approx(50.25, rel=1e-6)
    assert a.resources_used == 100
    pool.advance(24 * HOUR)
    (a,) = pool.priorities()
    assert a.real_priority == pytest.approx(75.125, rel=1e-6)


def test_priorities_quotas_and_configuration_change_at_run_time():
    pool = one_core_pool(4, "GROUP_NAMES = group_a, group_b\nGROUP_QUOTA_group_a = 3\nGROUP_QUOTA_group_b = 1\n")
    quota_changes = []
    pool.on_event(lambda e: quota_changes.append((e.submitter, e.value))
                  if e.kind == caracara.EventKind.QuotaChanged else None)
    job = "executable = /bin/true\naccounting_group = group_a\n+SimulatedRunTime = 60\nqueue 2\n"
    pool.submit("alice", job)
    pool.advance(120)
    assert {g.name: g.configured_quota for g in pool.group_quotas()}["group_a"] == 3
    pool.reconfigure(caracara.Node.CentralManager, "GROUP_QUOTA_group_a = 1\nGROUP_QUOTA_group_b = 3\n")
    pool.submit("alice", job)
    pool.advance(120)
    assert ("group_a", 1) in quota_changes
    pool.userprio("setfactor", "group_a.alice@py", 5)
    (alice,) = [p for p in pool.priorities() if p.name == "group_a.alice@py"]
    assert alice.factor == 5
    assert alice.group == "group_a"


def test_machines_join_and_leave():
    pool = one_core_pool(1)
    killed = []
    pool.on_event(lambda e: killed.append(e) if e.kind == caracara.EventKind.Killed else None)
    pool.submit("alice", "executable = /bin/true\n+SimulatedRunTime = 7200\nqueue 4\n")
    pool.add_machine("wide", "NUM_CPUS = 3\n")
    assert pool.cores == 4
    pool.advance(600)
    assert pool.jobs().running == 4
    pool.remove_machine("wide")
    assert len(killed) == 3
    assert all("wide" in e.slot for e in killed)
    assert pool.jobs().running == 1 and pool.jobs().idle == 3


def test_job_classads_are_submitted():
    pool = one_core_pool(1)
    assert pool.submit_ad("alice", '[ Cmd = "/bin/true"; SimulatedRunTime = 60 ]', count=2) == ["1.0", "1.1"]
    pool.advance(600)
    assert pool.jobs().idle == 0 and pool.jobs().running == 0
    with pytest.raises(caracara.Error, match="ClusterId, which the schedd sets itself"):
        pool.submit_ad("alice", '[ Cmd = "/bin/true"; ClusterId = 7 ]')


def test_an_outside_simulator_ends_the_jobs():
    pool = one_core_pool(1)
    finished = []
    pool.on_event(lambda e: finished.append(e.job) if e.kind == caracara.EventKind.Finished else None)
    pool.submit("alice", "executable = /bin/true\nqueue 2\n")  # no SimulatedRunTime: until told
    pool.advance(600)
    assert pool.jobs().running == 1 and finished == []
    pool.end_job("1.0")
    assert finished == ["1.0"]
    with pytest.raises(caracara.Error, match="not running"):
        pool.end_job("1.0")
    with pytest.raises(caracara.Error, match="cluster.proc"):
        pool.end_job("one")


def test_the_same_seed_gives_the_same_history():
    def history(seed):
        pool = caracara.VirtualPool(
            common="UID_DOMAIN = py\n", seed=seed,
            machines=[(f"ep{i}", "NUM_CPUS = 1\n") for i in range(1, 4)])
        seen = []
        pool.on_event(lambda e: seen.append((e.kind, e.time, e.job, e.slot)))
        pool.submit("alice", "executable = /bin/true\n+SimulatedRunTime = $RANDOM_INTEGER(60, 6000)\nqueue 20\n")
        pool.advance(48 * HOUR)
        return seen

    assert history(7) == history(7)
    assert history(7) != history(8)


def test_errors_name_the_place():
    with pytest.raises(caracara.Error, match=r"ep\.conf, line 11"):
        caracara.VirtualPool(machines=[caracara.MachineSpec("ep1", caracara.ConfigText("NUM_CPUS = 1\nSTART = (\n",
                                                                                           "ep.conf", 10))])
    pool = one_core_pool(1)
    with pytest.raises(caracara.Error):
        pool.submit("alice", "request_cpus = (\nqueue\n")
    with pytest.raises(caracara.Error, match="setcolour"):
        pool.userprio("setcolour", "alice@py", 1)
    with pytest.raises(caracara.Error, match="no machine named nowhere"):
        pool.remove_machine("nowhere")
    with pytest.raises(ValueError):
        caracara.VirtualPool(machines=[("ep1", "NUM_CPUS = 1\n", "extra")])


def test_a_callback_that_raises_stops_at_the_call_that_ran_it():
    pool = one_core_pool(1)

    def fails(event):
        if event.kind == caracara.EventKind.Started:
            raise KeyError("from the callback")

    pool.on_event(fails)
    pool.submit("alice", "executable = /bin/true\n+SimulatedRunTime = 60\nqueue 2\n")
    with pytest.raises(KeyError, match="from the callback"):
        pool.advance(HOUR)
    # The pool is at rest and usable: every event up to the hour ran.
    assert pool.jobs().idle == 0
    pool.advance(HOUR)
