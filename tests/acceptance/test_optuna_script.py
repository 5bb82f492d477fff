"""Issue 32: Optuna scripts run unchanged with `tunedeck-engine run SCRIPT.py`. tune_classifier.py is
written against Optuna's public API only: a define-by-run objective whose parameters depend on a
categorical choice (classifier, then that classifier's own settings), trial.report and
trial.should_prune with a MedianPruner, TrialPruned, set_user_attr, and the study's results
(best_params, best_value, best_trial, trials_dataframe) printed after study.optimize."""
import json
import os
import re
import subprocess
import unittest

from acceptance import BIN_DIR, main, project_for, results_by_trial

NAME = "classifier"
TRIALS = 14
BY_CLASSIFIER = {"logistic": {"logistic_lr", "logistic_l2"},
                 "stump": {"stump_feature", "stump_step"}}


class OptunaScript(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = project_for(cls, "optuna_script")
        cls.run_ = cls.user.engine("run", "tune_classifier.py", timeout=170)
        cls.configs = {trial: json.loads(config) for trial, config in cls.user.sql(
            NAME, "SELECT id, config FROM trials")} if cls.run_.code == 0 else {}

    def test_the_script_runs_every_trial_as_a_tunedeck_trial(self):
        self.assertEqual(self.run_.code, 0, str(self.run_))
        self.assertIn("Trials: %d" % TRIALS, self.run_.out, str(self.run_))
        self.assertEqual(len(self.configs), TRIALS, str(self.run_))
        statuses = {s for (s,) in self.user.sql(NAME, "SELECT status FROM trials")}
        self.assertEqual(statuses, {"TERMINATED"}, str(self.run_))
        spec = self.user.sql(NAME, "SELECT spec_text FROM experiment")[0][0]
        for piece in ('"algorithm": "tpe"', '"n_startup_trials": 6', '"type": "median"',
                      '"seed": 11', '"num_samples": 14'):
            self.assertIn(piece, spec)

    def test_configs_hold_the_parameters_each_trial_asked_for(self):
        seen = set()
        for trial, config in self.configs.items():
            classifier = config.get("classifier")
            self.assertIn(classifier, BY_CLASSIFIER, (trial, config))
            self.assertEqual(set(config), {"classifier"} | BY_CLASSIFIER[classifier],
                             (trial, config))
            seen.add(classifier)
            if classifier == "logistic":
                self.assertTrue(1e-4 <= config["logistic_lr"] <= 1.0, config)
            else:
                self.assertIn(config["stump_feature"], (0, 1))
                steps = config["stump_step"] / 0.05
                self.assertAlmostEqual(steps, round(steps), places=6, msg=config)
        self.assertEqual(seen, set(BY_CLASSIFIER), self.configs)

    def test_pruned_trials_are_stopped_by_the_median_rule(self):
        printed = re.search(r"Complete: (\d+) Pruned: (\d+)", self.run_.out)
        self.assertIsNotNone(printed, str(self.run_))
        complete, pruned = int(printed.group(1)), int(printed.group(2))
        self.assertEqual(complete + pruned, TRIALS)
        self.assertGreater(pruned, 0, str(self.run_))
        stopped = {json.loads(p)["trial"] for (p,) in self.user.sql(
            NAME, "SELECT payload FROM events WHERE type = 'trial_status' AND payload LIKE "
                  "'%TERMINATED%' AND payload LIKE '%median:%'")}
        self.assertEqual(len(stopped), pruned, str(self.run_))
        lengths = {trial: len(iterations) for trial, iterations in
                   results_by_trial(self.user, NAME).items()}
        for trial in stopped:
            # Stopped before the last of 12 epochs (and its final value).
            self.assertLess(lengths[trial], 12, (trial, lengths))
        finished = [t for t in self.configs if t not in stopped]
        for trial in finished:
            self.assertEqual(lengths[trial], 13, (trial, lengths))  # 12 reports + the value

    def test_the_printed_best_is_the_histories_best(self):
        params = json.loads(re.search(r"Best params: (\{.*\})", self.run_.out).group(1))
        value = float(re.search(r"Best value: ([0-9.]+)", self.run_.out).group(1))
        stopped = {json.loads(p)["trial"] for (p,) in self.user.sql(
            NAME, "SELECT payload FROM events WHERE type = 'trial_status' AND payload LIKE "
                  "'%median:%'")}
        completed = [(json.loads(r)["value"], trial) for trial, r in self.user.sql(
            NAME, "SELECT id, last_result FROM trials") if trial not in stopped]
        best_value, best_trial = min(completed)
        self.assertAlmostEqual(value, best_value, places=4)
        self.assertEqual(params, self.configs[best_trial])
        self.assertIn("{'epochs': 12}", self.run_.out)

    def test_the_dataframe_has_optunas_columns(self):
        columns = re.search(r"Dataframe rows: (\d+) columns: (\S+)", self.run_.out)
        self.assertIsNotNone(columns, str(self.run_))
        self.assertEqual(int(columns.group(1)), TRIALS)
        for column in ("number", "value", "state", "params_classifier", "params_logistic_lr",
                       "params_stump_step", "user_attrs_epochs", "duration"):
            self.assertIn(column, columns.group(2).split(","))

    def test_the_exported_study_continues_with_the_asked_distributions(self):
        # tunedeck.to_optuna of the experiment: each parameter has the distribution the objective
        # asked for (no experiment file holds them), so Optuna goes on with the same objective.
        script = (
            "import sys, tunedeck, optuna\n"
            "sys.path.insert(0, '.')\n"
            "import tune_classifier\n"
            "optuna.logging.set_verbosity(optuna.logging.WARNING)\n"
            "study = tunedeck.to_optuna(sys.argv[1])\n"
            "print(study.trials[0].distributions['classifier'])\n"
            "print(sorted(d.log for t in study.trials for n, d in t.distributions.items()\n"
            "             if n == 'logistic_lr')[:1])\n"
            "study.optimize(tune_classifier.objective, n_trials=2)\n"
            "print('continued', len(study.trials))\n")
        env = dict(self.user.env, PYTHONPATH=os.path.join(BIN_DIR, "..", "share", "tunedeck",
                                                          "sdk", "python"))
        proc = subprocess.run(["/usr/bin/python3", "-c", script, self.user.experiment_dir(NAME)],
                              cwd=self.user.folder, env=env, text=True, timeout=120,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.assertEqual(proc.returncode, 0, proc.stdout[-3000:])
        self.assertIn("CategoricalDistribution(choices=('logistic', 'stump'))", proc.stdout)
        self.assertIn("[True]", proc.stdout)
        self.assertIn("continued %d" % (TRIALS + 2), proc.stdout)


if __name__ == "__main__":
    main()
