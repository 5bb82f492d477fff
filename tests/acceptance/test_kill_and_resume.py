"""Case 7: kill -9 of the engine in the middle of a run, then `resume`: every trial continues
from its latest checkpoint (no iteration before it run again, none after it lost), the
checkpoint folders are on disk and the SQLite file is intact."""
import os
import time
import unittest

from acceptance import live_checkpoints, main, project_for, results_by_trial

NAME = "long-run"
ITERATIONS = 24


class KillAndResume(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = user = project_for(cls, "kill_and_resume")
        engine = user.start("run", "experiment.yaml")
        # Kill once some trial is well into its run and has checkpoints behind it.
        try:
            user.wait_until(lambda: user.sql(NAME, "SELECT COALESCE(MAX(iteration), 0) "
                                                   "FROM checkpoints")[0][0] >= 9,
                            60, "a checkpoint at iteration 9")
        finally:
            cls.killed_output = user.kill_nine(engine)
        time.sleep(1)  # what the engine left running has stopped (its agent saw the pipe close)
        # The latest checkpoint of each trial, as the history has it at the moment of the kill.
        cls.latest_at_kill = {}
        for trial, iteration, _ in live_checkpoints(user, NAME):
            cls.latest_at_kill[trial] = max(iteration, cls.latest_at_kill.get(trial, 0))
        cls.resumed = user.engine("resume", user.experiment_dir(NAME), timeout=120)

    def test_resume_finishes_every_trial(self):
        self.assertEqual(self.resumed.code, 0, str(self.resumed))
        rows = self.user.sql(NAME, "SELECT id, status, iteration FROM trials")
        self.assertEqual(len(rows), 3)
        for trial, status, iteration in rows:
            self.assertEqual((status, iteration), ("TERMINATED", ITERATIONS), trial)

    def test_each_trial_continues_from_its_latest_checkpoint(self):
        self.assertTrue(self.latest_at_kill, "no checkpoint before the kill:\n%s"
                        % self.killed_output)
        for trial, trial_dir in self.user.trial_dirs(NAME).items():
            starts = self.starts(trial_dir)
            latest = self.latest_at_kill.get(trial, 0)
            # The start after the kill begins where the latest checkpoint left off.
            after_kill = starts[-1][0]
            self.assertEqual(after_kill, latest,
                             "%s: resumed at iteration %d, its latest checkpoint was at %d\n%s"
                             % (trial, after_kill, latest, self.resumed))
            for begin, ran in starts:
                # No iteration at or before the restored checkpoint run again, none skipped.
                self.assertEqual(ran, list(range(begin + 1, begin + 1 + len(ran))),
                                 "%s: after starting at %d it ran %s" % (trial, begin, ran))
            self.assertEqual(starts[-1][1][-1], ITERATIONS, trial)

    def test_results_hold_each_iteration_exactly_once(self):
        by_trial = results_by_trial(self.user, NAME)
        self.assertEqual(len(by_trial), 3)
        for trial, iterations in by_trial.items():
            self.assertEqual(sorted(iterations), list(range(1, ITERATIONS + 1)), trial)

    def test_checkpoint_folders_exist_on_disk(self):
        rows = live_checkpoints(self.user, NAME)
        self.assertTrue(rows)
        for trial, iteration, path in rows:
            self.assertTrue(os.path.isfile(os.path.join(path, "state.json")),
                            "%s iteration %d: %s" % (trial, iteration, path))

    def test_database_is_intact(self):
        self.assertEqual(self.user.sql(NAME, "PRAGMA integrity_check"), [("ok",)])

    def test_export_shows_every_result(self):
        for trial in self.user.export(NAME):
            self.assertEqual(len(trial["results"]), ITERATIONS, trial["trial_id"])

    @staticmethod
    def starts(trial_dir):
        """[(iteration it started after, [iterations it ran])] from the trial's own record."""
        starts = []
        with open(os.path.join(trial_dir, "iterations.txt")) as f:
            for line in f:
                if line.startswith("start "):
                    starts.append((int(line.split()[1]), []))
                elif line.strip():
                    starts[-1][1].append(int(line))
        return starts


if __name__ == "__main__":
    main()
