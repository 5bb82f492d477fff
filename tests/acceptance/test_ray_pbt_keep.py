"""PBT with `checkpoint: {keep: 2}` and checkpoints reported off the perturbation interval
(issue 31): every member of the population runs to the stop rule. Retention once deleted a
checkpoint an exploit copy still used, and 6 of 8 trials died restoring from it."""
import os
import unittest

from acceptance import live_checkpoints, main, project_for

NAME = "pbt-keep"


class RayPbtKeep(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = project_for(cls, "ray_pbt_keep")
        cls.run_ = cls.user.engine("run", "experiment.yaml")

    def test_every_member_runs_to_the_stop_rule(self):
        self.assertEqual(self.run_.code, 0, str(self.run_))
        rows = self.user.sql(NAME, "SELECT id, status, iteration FROM trials")
        self.assertEqual(len(rows), 8)
        for trial, status, iteration in rows:
            self.assertEqual((status, iteration), ("TERMINATED", 30), trial)

    def test_exploits_happened(self):
        exploits = self.user.sql(NAME, "SELECT COUNT(*) FROM exploits")[0][0]
        self.assertGreater(exploits, 0, str(self.run_))

    def test_no_trial_restored_from_a_missing_checkpoint(self):
        for trial, folder in self.user.trial_dirs(NAME).items():
            log = os.path.join(folder, "trial.log")
            with open(log, errors="replace") as f:
                text = f.read()
            self.assertNotIn("FileNotFoundError", text, "%s:\n%s" % (trial, text[-3000:]))

    def test_kept_checkpoints_are_on_disk_and_at_most_two_per_trial(self):
        per_trial = {}
        for trial, iteration, path in live_checkpoints(self.user, NAME):
            self.assertTrue(os.path.isfile(os.path.join(path, "state.json")),
                            "%s iteration %d: %s is gone" % (trial, iteration, path))
            per_trial[trial] = per_trial.get(trial, 0) + 1
        for trial, count in per_trial.items():
            self.assertLessEqual(count, 2, trial)

    def test_no_folder_is_two_kept_checkpoints(self):
        # An exploit's copy replaced the checkpoint the trial reported at the same iteration,
        # and both rows named one folder: deleting the older deleted the newer.
        shared = self.user.sql(NAME, "SELECT path, COUNT(*) FROM checkpoints WHERE deleted = 0 "
                                     "GROUP BY path HAVING COUNT(*) > 1")
        self.assertEqual(shared, [])


if __name__ == "__main__":
    main()
