"""A trial told to stop that ignores it (catches SystemExit, ignores SIGTERM) is ended after
failure.stop_grace_s with SIGTERM, then SIGKILL, and the run finishes (issues 31 and 33: the
run used to wait for it forever)."""
import os
import time
import unittest

from acceptance import main, project_for

NAME = "ignores-stop"


class IgnoresStop(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = project_for(cls, "ignores_stop")
        started = time.monotonic()
        cls.run_ = cls.user.engine("run", "experiment.yaml", timeout=90)
        cls.seconds = time.monotonic() - started

    def test_the_run_ends_with_both_trials_stopped_by_the_rule(self):
        self.assertEqual(self.run_.code, 0, str(self.run_))
        rows = self.user.sql(NAME, "SELECT id, status, iteration FROM trials")
        self.assertEqual(sorted(r[1:] for r in rows), [("TERMINATED", 3)] * 2, str(self.run_))

    def test_the_run_says_why_it_ended_the_trials(self):
        self.assertIn("stop_grace_s", self.run_.text)

    def test_no_trial_process_is_left(self):
        for trial, folder in self.user.trial_dirs(NAME).items():
            with open(os.path.join(folder, "pid")) as f:
                pid = int(f.read())
            self.assertFalse(os.path.exists("/proc/%d" % pid), "%s (pid %d) still runs"
                             % (trial, pid))


if __name__ == "__main__":
    main()
