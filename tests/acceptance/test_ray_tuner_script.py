"""Issue 32: Ray Tune 2.x scripts run unchanged with `tunedeck-engine run SCRIPT.py`. tune_mlp.py:
Tuner, TuneConfig, RunConfig, a function trainable with train.report and Checkpoint.from_dict,
ASHA, OptunaSearch behind a ConcurrencyLimiter, and the ResultGrid it prints from;
tune_hyperband.py: below."""
import json
import re
import unittest

from acceptance import main, project_for, results_by_trial

NAME = "mlp_asha"
SAMPLES = 6


class RayTunerScript(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = project_for(cls, "ray_tuner_script")
        cls.run_ = cls.user.engine("run", "tune_mlp.py", "--samples", str(SAMPLES))

    def test_script_finishes_and_prints_its_results(self):
        self.assertEqual(self.run_.code, 0, str(self.run_))
        self.assertIn("Trials in dataframe: %d" % SAMPLES, self.run_.out, str(self.run_))
        self.assertIn("Errors: 0", self.run_.out)

    def test_history_holds_every_trial_with_the_scripts_search(self):
        rows = self.user.sql(NAME, "SELECT id, status FROM trials")
        self.assertEqual(len(rows), SAMPLES, str(self.run_))
        self.assertEqual({s for _, s in rows}, {"TERMINATED"})
        spec = self.user.sql(NAME, "SELECT spec_text FROM experiment")[0][0]
        for piece in ('"algorithm": "tpe"', '"max_concurrent": 4', '"type": "asha"',
                      '"metric": "val_loss"'):
            self.assertIn(piece, spec)

    def test_asha_stopped_some_trials_early(self):
        by_trial = results_by_trial(self.user, NAME)
        lengths = sorted(len(v) for v in by_trial.values())
        self.assertEqual(lengths[-1], 6, by_trial)
        self.assertLess(lengths[0], 6, by_trial)

    def test_printed_best_is_the_engines_best_and_its_checkpoint(self):
        best = self.user.best(NAME, "--format", "json")
        self.assertEqual(best.code, 0, str(best))
        printed = re.search(r"Best val_loss: ([0-9.]+)", self.run_.out)
        self.assertIsNotNone(printed, str(self.run_))
        trial = self.user.sql(NAME, "SELECT id, iteration FROM trials ORDER BY "
                                    "json_extract(last_result, '$.val_loss') LIMIT 1")[0]
        loss = self.user.sql(NAME, "SELECT json_extract(last_result, '$.val_loss') FROM trials "
                                   "WHERE id = ?", trial[0])[0][0]
        self.assertAlmostEqual(float(printed.group(1)), loss, places=5)
        # The checkpoint the script read back is the one of the trial's last iteration.
        self.assertIn("Best checkpoint epoch: %d" % trial[1], self.run_.out)

    def test_sample_from_is_evaluated_with_the_rest_of_the_config(self):
        printed = json.loads(re.search(r"Best config: (\{.*\})", self.run_.out).group(1))
        self.assertEqual(printed["blocks"], printed["hidden"] // 16, printed)
        recorded = [json.loads(c) for (c,) in self.user.sql(NAME, "SELECT config FROM trials")]
        self.assertIn({k: v for k, v in printed.items() if k != "blocks"}, recorded)

    def test_checkpoints_from_dicts_are_kept_per_iteration(self):
        kept = self.user.sql(NAME, "SELECT COUNT(*) FROM checkpoints")[0][0]
        results = self.user.sql(NAME, "SELECT COUNT(*) FROM results")[0][0]
        self.assertEqual(kept, results)


class RayHyperBandScript(unittest.TestCase):
    """tune_hyperband.py: a class Trainable with tune.with_parameters and tune.with_resources,
    HyperBand pausing trials at dict checkpoints (save_checkpoint returning a dict, Ray 2),
    HyperOptSearch, and a tune.Callback in the driver."""

    @classmethod
    def setUpClass(cls):
        cls.user = project_for(cls, "ray_tuner_script")
        cls.run_ = cls.user.engine("run", "tune_hyperband.py")

    def test_runs_and_prints_the_best(self):
        self.assertEqual(self.run_.code, 0, str(self.run_))
        statuses = self.user.sql("regressor_hb", "SELECT status FROM trials")
        self.assertEqual([s for (s,) in statuses], ["TERMINATED"] * 6)
        printed = float(re.search(r"best mse: ([0-9.]+)", self.run_.out).group(1))
        best = min(v for (v,) in self.user.sql(
            "regressor_hb", "SELECT json_extract(last_result, '$.mse') FROM trials"))
        self.assertAlmostEqual(printed, best, places=6)

    def test_paused_trials_resume_where_their_checkpoint_left_them(self):
        # Each trial's curve goes on without a gap or a repeat across HyperBand's pauses, which
        # resume from the dict the trainable's save_checkpoint returned.
        self.assertGreater(self.user.sql("regressor_hb", "SELECT COUNT(*) FROM checkpoints")[0][0],
                           0, str(self.run_))
        for trial, iterations in results_by_trial(self.user, "regressor_hb").items():
            self.assertEqual(iterations, list(range(1, len(iterations) + 1)), trial)
        self.assertIn("curve length: 9", self.run_.out)

    def test_callbacks_see_every_result_and_trial(self):
        results = self.user.sql("regressor_hb", "SELECT COUNT(*) FROM results")[0][0]
        self.assertIn("callback: %d results, 6 trials completed, ended True" % results,
                      self.run_.out, str(self.run_))

    def test_searcher_and_scheduler_are_tpe_and_hyperband(self):
        spec = self.user.sql("regressor_hb", "SELECT spec_text FROM experiment")[0][0]
        for piece in ('"algorithm": "tpe"', '"n_startup_trials": 3', '"type": "hyperband"',
                      '"seed": 5', '"cpu": 1'):
            self.assertIn(piece, spec)


if __name__ == "__main__":
    main()
