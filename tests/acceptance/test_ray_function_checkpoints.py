"""Case 1: a Ray 2.x function trainable hands over a checkpoint folder with every report and
restores from get_checkpoint() after a crash (issue 16, defect 1)."""
import json
import os
import shutil
import unittest

from acceptance import live_checkpoints, main, project_for, read_lines, results_by_trial

NAME = "ray-function-checkpoints"
EPOCHS = 6


class RayFunctionCheckpoints(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = project_for(cls, "ray_function_checkpoints")
        cls.run_ = cls.user.engine("run", "experiment.yaml")
        cls.trials = cls.user.trial_dirs(NAME)
        cls.by_folder = {json.loads(config)["checkpoint_folder"]: trial
                         for trial, config in cls.user.sql(NAME, "SELECT id, config FROM trials")}

    @classmethod
    def tearDownClass(cls):
        for trial_dir in cls.trials.values():
            for line in read_lines(os.path.join(trial_dir, "tempdirs.txt")):
                shutil.rmtree(line, ignore_errors=True)

    def test_run_finishes_without_checkpoint_warnings(self):
        self.assertEqual(self.run_.code, 0, str(self.run_))
        self.assertNotIn("cannot move", self.run_.text, str(self.run_))
        self.assertEqual(sorted(self.by_folder), ["tempdir", "trial_dir"])

    def test_checkpoints_table_has_every_handed_over_folder(self):
        rows = live_checkpoints(self.user, NAME)
        for folder, trial in self.by_folder.items():
            iterations = [i for t, i, _ in rows if t == trial]
            self.assertTrue(iterations, "%s (%s): no row in the checkpoints table\n%s"
                            % (trial, folder, self.run_))
            self.assertEqual(max(iterations), EPOCHS, "%s (%s)" % (trial, folder))

    def test_checkpoint_folders_hold_the_users_files(self):
        rows = live_checkpoints(self.user, NAME)
        self.assertTrue(rows, "the checkpoints table is empty\n%s" % self.run_)
        for trial, iteration, path in rows:
            model = os.path.join(path, "model.json")
            self.assertTrue(os.path.isfile(model), "%s: %s has no model.json" % (trial, path))
            with open(model) as f:
                self.assertEqual(json.load(f)["epoch"], iteration, model)

    def test_retry_restores_the_latest_checkpoint(self):
        for folder, trial in self.by_folder.items():
            trial_dir = self.trials[trial]
            self.assertEqual(read_lines(os.path.join(trial_dir, "restored.txt")), ["3"],
                             "%s (%s): the retry did not start from the epoch 3 checkpoint\n%s"
                             % (trial, folder, self.run_))
            self.assertEqual(read_lines(os.path.join(trial_dir, "epochs.txt")),
                             [str(e) for e in range(1, EPOCHS + 1)],
                             "%s (%s): epochs ran more than once or not at all" % (trial, folder))

    def test_results_hold_each_epoch_once(self):
        by_trial = results_by_trial(self.user, NAME)
        for trial in self.trials:
            self.assertEqual(sorted(by_trial.get(trial, [])), list(range(1, EPOCHS + 1)), trial)

    def test_temporary_folders_are_left_to_the_user(self):
        # A folder outside the trial's directory is copied and left as it was (the SDK's
        # contract, as Ray's report copies a temporary directory the user then deletes).
        trial_dir = self.trials[self.by_folder["tempdir"]]
        tempdirs = read_lines(os.path.join(trial_dir, "tempdirs.txt"))
        self.assertEqual(len(tempdirs), EPOCHS)
        for folder in tempdirs:
            self.assertTrue(os.path.isfile(os.path.join(folder, "model.json")),
                            "the engine removed or emptied the user's folder %s" % folder)

    def test_export_and_best_show_both_trials(self):
        exported = self.user.export(NAME)
        self.assertEqual(len({row.get("trial_id") for row in exported}), 2, exported[:2])
        best = self.user.best(NAME, "--format", "json")
        self.assertEqual(best.code, 0, str(best))
        self.assertIn("checkpoint_folder", best.out)


if __name__ == "__main__":
    main()
