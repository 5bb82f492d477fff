"""Case 4: an NNI example with its search_space.json, and the same space pasted inline: every
trial receives values drawn from NNI's `_type`/`_value` specs, floats as floats (issue 16,
defects 4 and 7)."""
import json
import os
import unittest

from acceptance import main, project_for

CHOICES = {
    "batch_size": [16, 32, 64, 128],
    "hidden_size": [128, 256, 512, 1024],
    "lr": [0.0001, 0.001, 0.01, 0.1],
    "weight_scale": [0.5, 1.0, 2.0],
}
FLOATS = ("lr", "momentum", "weight_scale")


class NniSearchSpace(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = project_for(cls, "nni_search_space")

    def check_experiment(self, file_name, name):
        validated = self.user.engine("validate", file_name)
        self.assertEqual(validated.code, 0, str(validated))
        self.assertIn("5 parameters", validated.out, str(validated))
        run = self.user.engine("run", file_name)
        self.assertEqual(run.code, 0, str(run))
        trials = self.user.trial_dirs(name)
        self.assertEqual(len(trials), 6)
        for trial, trial_dir in trials.items():
            with open(os.path.join(trial_dir, "params.json")) as f:
                received = json.load(f)
            for key, values in CHOICES.items():
                self.assertIn(received[key][0], values, "%s %s: %s" % (trial, key, received))
            self.assertTrue(0.0 <= received["momentum"][0] <= 1.0, received)
            for key in FLOATS:
                self.assertEqual(received[key][1], "float", "%s: %s reached the trial as %s"
                                 % (trial, key, received[key]))
            self.assertEqual(received["batch_size"][1], "int", received)
        for exported in self.user.export(name):
            config = exported["config"]
            self.assertEqual(sorted(config), sorted(list(CHOICES) + ["momentum"]), config)
            for key in FLOATS:
                self.assertIsInstance(config[key], float, "export: %s" % config)
        best = self.user.best(name, "--format", "json")
        self.assertEqual(best.code, 0, str(best))
        for key in FLOATS:
            self.assertIsInstance(json.loads(best.out)[key], float, "best: %s" % best.out)

    def test_search_space_json_file(self):
        self.check_experiment("experiment.yaml", "nni-mnist")

    def test_search_space_pasted_inline(self):
        # Issue 16 allows either answer: the inline space works as the file does, or validate
        # refuses it with a message naming the place and what to write instead. Never a run
        # whose trials receive NNI's dictionaries.
        validated = self.user.engine("validate", "experiment_inline.yaml")
        if validated.code == 2:
            self.assertRegex(validated.err, r"experiment_inline\.yaml:\d+:\d+: .*_type",
                             str(validated))
            return
        self.check_experiment("experiment_inline.yaml", "nni-mnist-inline")


if __name__ == "__main__":
    main()
