"""Issue 32, item 4: Ray Tune's trainable lifecycle on Tunedeck's SDK. A class trainable has
self.config before setup() (all trials died with AttributeError before); the path
save_checkpoint() returns is the one load_checkpoint() receives (trials died with
IsADirectoryError: they were given the folder); Checkpoint.from_dict / to_dict exist; and
`stop: {done: true}` is accepted (it was refused with "expected a number")."""
import os
import unittest

from acceptance import main, project_for, read_lines, results_by_trial


class TrainableLifecycle(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = project_for(cls, "trainable_lifecycle")
        cls.class_run = cls.user.engine("run", "experiment.yaml")
        cls.dict_run = cls.user.engine("run", "dict_checkpoints.yaml")

    def test_class_trainable_runs_to_the_stop_rule(self):
        self.assertEqual(self.class_run.code, 0, str(self.class_run))
        rows = self.user.sql("lifecycle", "SELECT status, iteration, last_result FROM trials")
        self.assertEqual([(s, i) for s, i, _ in rows], [("TERMINATED", 6)] * 2,
                         str(self.class_run))

    def test_load_checkpoint_receives_the_path_save_checkpoint_returned(self):
        for trial, folder in self.user.trial_dirs("lifecycle").items():
            self.assertEqual(read_lines(os.path.join(folder, "loaded.txt")), ["state.json 3"],
                             "%s\n%s" % (trial, self.class_run))
        for trial, iterations in results_by_trial(self.user, "lifecycle").items():
            self.assertEqual(sorted(iterations), list(range(1, 7)), trial)

    def test_dict_checkpoints_round_trip(self):
        self.assertEqual(self.dict_run.code, 0, str(self.dict_run))
        (folder,) = self.user.trial_dirs("dict-checkpoints").values()
        self.assertEqual(read_lines(os.path.join(folder, "resumed.txt")), ["3 6"],
                         str(self.dict_run))
        values = self.user.sql("dict-checkpoints",
                               "SELECT json_extract(data, '$.value') FROM results ORDER BY seq")
        self.assertEqual([v for (v,) in values], [2, 4, 6, 8, 10])


if __name__ == "__main__":
    main()
