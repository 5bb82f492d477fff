"""Issue 32: a Ray Tune script whose OptunaSearch is given a define-by-run function (Ray's way to
write conditional spaces) runs unchanged under `tunedeck-engine run SCRIPT.py`: each trial asks
for its parameters as the function does, the history records what each asked for, and the
trainable and the results see Ray's config (names with '/' nested, the returned constants in)."""
import json
import re
import unittest

from acceptance import main, project_for, results_by_trial

NAME = "train_model"


class RayOptunaDefineByRun(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = project_for(cls, "ray_optuna_define_by_run")
        cls.run_ = cls.user.engine("run", "tune_conditional.py", timeout=170)

    def test_the_history_holds_what_each_trial_asked_for(self):
        self.assertEqual(self.run_.code, 0, str(self.run_))
        configs = [json.loads(c) for (c,) in self.user.sql(
            NAME, "SELECT config FROM trials ORDER BY id")]
        self.assertEqual(len(configs), 8)
        models = set()
        for config in configs:
            models.add(config["model"])
            expected = {"lr", "model"} | ({"mlp/hidden"} if config["model"] == "mlp" else set())
            self.assertEqual(set(config), expected, config)
            self.assertTrue(1e-3 <= config["lr"] <= 1e-1, config)
        self.assertEqual(models, {"linear", "mlp"})
        spec = self.user.sql(NAME, "SELECT spec_text FROM experiment")[0][0]
        self.assertIn('"algorithm": "tpe"', spec)
        # The constant reached the trainable: four epochs each.
        for trial, rows in results_by_trial(self.user, NAME).items():
            self.assertEqual(len(rows), 4, trial)

    def test_the_results_show_rays_config(self):
        self.assertEqual(self.run_.code, 0, str(self.run_))
        printed = [json.loads(c) for c in re.findall(r"^Config: (\{.*\})$", self.run_.out, re.M)]
        self.assertEqual(len(printed), 8, self.run_.out)
        for config in printed:
            self.assertEqual(config["epochs"], 4, config)
            if config["model"] == "mlp":
                self.assertTrue(4 <= config["mlp"]["hidden"] <= 64, config)
            else:
                self.assertNotIn("mlp", config)
        best = json.loads(re.search(r"Best config: (\{.*\})", self.run_.out).group(1))
        losses = {json.loads(r)["loss"] for (r,) in self.user.sql(
            NAME, "SELECT last_result FROM trials")}
        loss = float(re.search(r"Best loss: ([0-9.]+)", self.run_.out).group(1))
        self.assertAlmostEqual(loss, min(losses), places=5)
        self.assertIn(best, printed)


if __name__ == "__main__":
    main()
