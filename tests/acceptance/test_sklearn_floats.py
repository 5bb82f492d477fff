"""Case 5: a scikit-learn trainable whose parameters mean one thing as a float and another as an
int. max_features: 1.0 (all 64 features of the digits) must reach scikit-learn as 1.0, not 1
(one feature), and so must a quniform 1.0 (issue 16, defect 4)."""
import json
import unittest

from acceptance import main, project_for

NAME = "sklearn-floats"
DIGITS_FEATURES = 64


class SklearnFloats(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = project_for(cls, "sklearn_floats")
        cls.run_ = cls.user.engine("run", "experiment.yaml", timeout=170)
        cls.exported = cls.user.export(NAME) if cls.run_.code == 0 else []

    def test_run_finishes(self):
        self.assertEqual(self.run_.code, 0, str(self.run_))
        self.assertEqual(len(self.exported), 4)

    def test_max_features_one_point_zero_means_all_features(self):
        whole = [t for t in self.exported if t["config"]["max_features"] == 1.0]
        self.assertTrue(whole, self.exported)
        for trial in whole:
            result = trial["results"][-1]
            self.assertEqual(result["max_features_type"], "float", trial)
            self.assertEqual(result["features_per_split"], DIGITS_FEATURES,
                             "%s: max_features 1.0 reached scikit-learn as %s"
                             % (trial["trial_id"], result["max_features_type"]))

    def test_quniform_values_stay_floats(self):
        for trial in self.exported:
            self.assertEqual(trial["results"][-1]["max_samples_type"], "float", trial)

    def test_export_and_best_write_floats(self):
        for trial in self.exported:
            for key in ("max_features", "max_samples"):
                self.assertIsInstance(trial["config"][key], float, "export: %s" % trial["config"])
        best = self.user.best(NAME, "--format", "json")
        self.assertEqual(best.code, 0, str(best))
        config = json.loads(best.out)
        for key in ("max_features", "max_samples"):
            self.assertIsInstance(config[key], float, "best: %s" % best.out)
        best_yaml = self.user.best(NAME, "--format", "yaml")
        self.assertRegex(best_yaml.out, r"max_features: (1\.0|0\.5)\b", best_yaml.out)


if __name__ == "__main__":
    main()
