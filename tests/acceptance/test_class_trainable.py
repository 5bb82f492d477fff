"""Case 2: the class trainable (tunedeck.Trainable with setup/step/save_checkpoint/
load_checkpoint): checkpoints on the engine's schedule, kept on disk, and a retry that resumes
from the latest one."""
import json
import os
import unittest

from acceptance import live_checkpoints, main, project_for, read_lines, results_by_trial

NAME = "class-trainable"
ITERATIONS = 8


class ClassTrainable(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = project_for(cls, "class_trainable")
        cls.run_ = cls.user.engine("run", "experiment.yaml")
        cls.trials = cls.user.trial_dirs(NAME)

    def test_run_finishes(self):
        self.assertEqual(self.run_.code, 0, str(self.run_))
        statuses = dict(self.user.sql(NAME, "SELECT id, status FROM trials"))
        self.assertEqual(set(statuses.values()), {"TERMINATED"}, statuses)

    def test_checkpoints_on_disk_hold_the_users_state(self):
        rows = live_checkpoints(self.user, NAME)
        for trial in self.trials:
            iterations = [i for t, i, _ in rows if t == trial]
            self.assertIn(ITERATIONS, iterations, "%s: no checkpoint at the end\n%s"
                          % (trial, self.run_))
        for trial, iteration, path in rows:
            state = os.path.join(path, "state.json")
            self.assertTrue(os.path.isfile(state), "%s: %s has no state.json" % (trial, path))
            with open(state) as f:
                self.assertEqual(json.load(f)["iteration"], iteration, state)

    def test_retry_loads_the_checkpoint_of_iteration_4(self):
        for trial, trial_dir in self.trials.items():
            self.assertEqual(read_lines(os.path.join(trial_dir, "restored.txt")), ["4"],
                             "%s\n%s" % (trial, self.run_))
            # 1-5, the crash at 5, then 5-8 again from the checkpoint of 4: nothing before it
            # re-run, nothing after it skipped.
            self.assertEqual(read_lines(os.path.join(trial_dir, "steps.txt")),
                             [str(i) for i in [1, 2, 3, 4, 5, 5, 6, 7, 8]], trial)

    def test_results_hold_each_iteration_once(self):
        by_trial = results_by_trial(self.user, NAME)
        for trial in self.trials:
            self.assertEqual(sorted(by_trial.get(trial, [])), list(range(1, ITERATIONS + 1)),
                             trial)

    def test_export_and_best(self):
        exported = self.user.export(NAME)
        self.assertEqual(len(exported), 2)
        for trial in exported:
            self.assertEqual([r["training_iteration"] for r in trial["results"]],
                             list(range(1, ITERATIONS + 1)), trial["trial_id"])
        best = self.user.best(NAME, "--format", "json")
        self.assertEqual(best.code, 0, str(best))
        self.assertIn('"lr"', best.out)


if __name__ == "__main__":
    main()
