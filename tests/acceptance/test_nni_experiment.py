"""Issue 32: an NNI v2 experiment config and its trial code run unchanged with `tunedeck-engine
run config.yml`: the search space file, TPE with its optimize_mode and seed, the Medianstop
assessor, trialConcurrency and maxTrialNumber; the trial's `import nni` reports intermediate and
final results. Keys Tunedeck cannot honour are named, with what to do instead."""
import json
import os
import re
import unittest

from acceptance import main, project_for, results_by_trial

NAME = "nni_quadratic"


class NniExperiment(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = project_for(cls, "nni_experiment")
        cls.run_ = cls.user.engine("run", "config.yml")

    def test_runs_max_trial_number_trials(self):
        self.assertEqual(self.run_.code, 0, str(self.run_))
        rows = self.user.sql(NAME, "SELECT id, status, config FROM trials")
        self.assertEqual(len(rows), 6)
        for trial, status, config in rows:
            self.assertIn(status, ("TERMINATED",), trial)
            self.assertEqual(set(json.loads(config)),
                             {"learning_rate", "batch_size", "dropout"})

    def test_the_config_became_tpe_median_and_the_limits(self):
        spec = json.loads(self.user.sql(NAME, "SELECT spec_text FROM experiment")[0][0])
        self.assertEqual(spec["search"], {"algorithm": "tpe"})
        self.assertEqual((spec["metric"], spec["mode"], spec["seed"]), ("default", "max", 11))
        self.assertEqual(spec["scheduler"]["type"], "median")
        self.assertEqual((spec["max_concurrent_trials"], spec["num_samples"],
                          spec["time_budget_s"]), (2, 6, 3600.0))

    def test_intermediate_and_final_results_are_recorded(self):
        by_trial = results_by_trial(self.user, NAME)
        finished = [t for t, its in by_trial.items() if len(its) == 6]
        self.assertTrue(finished, by_trial)  # 5 intermediate + the final one
        final = self.user.sql(NAME, "SELECT last_result FROM trials WHERE id = ?", finished[0])
        self.assertEqual(json.loads(final[0][0])["epochs"], 5)

    def test_trial_ids_and_sequence_ids(self):
        for trial, folder in self.user.trial_dirs(NAME).items():
            path = os.path.join(self.user.folder, "trial_%s.json" % trial)
            with open(path) as f:
                self.assertEqual(json.load(f)["sequence"], int(trial[1:]))

    def test_prints_the_best_trial(self):
        best = self.user.best(NAME, "--format", "json")
        self.assertEqual(best.code, 0, str(best))
        match = re.search(r"Best trial (t\d+)", self.run_.out)
        self.assertIsNotNone(match, str(self.run_))
        self.assertIn("best trial %s " % match.group(1), best.err)

    def test_dry_run_prints_the_experiment_and_runs_nothing(self):
        outcome = self.user.engine("run", "config.yml", "--dry-run")
        self.assertEqual(outcome.code, 0, str(outcome))
        spec = json.loads(outcome.out)
        self.assertEqual(spec["name"], NAME)
        self.assertEqual(spec["trainable"]["command"], ["sh", "-c", "python3 trial.py"])
        self.assertTrue(spec["search_space"].endswith("search_space.json"))
        self.assertEqual(len(self.user.sql(NAME, "SELECT id FROM trials")), 6)

    def test_keys_tunedeck_cannot_honour_are_named(self):
        outcome = self.user.engine("run", "config_remote.yml")
        self.assertEqual(outcome.code, 2, str(outcome))
        for expected in (r"config_remote\.yml:6: maxTrialDuration: no per-trial time limit",
                         r"config_remote\.yml:7: tuner\.name: SMAC is not a Tunedeck searcher: "
                         r"use GPTuner",
                         r"trainingService\.machineList\[1\]\.password: Tunedeck logs in "
                         r"with keys, never a password"):
            self.assertRegex(outcome.err, expected)
        self.assertFalse(os.path.exists(self.user.experiment_dir("nni_remote")))

    def test_a_config_with_machines_submitted_to_a_cluster_names_both(self):
        # submit runs a config's experiment on the cluster file; one whose trainingService
        # lists machines of its own is refused rather than moved (nothing is started).
        outcome = self.user.engine("submit", "lab.yaml", "config_machines.yml")
        self.assertNotEqual(outcome.code, 0, str(outcome))
        self.assertRegex(outcome.text, r"names a cluster of its own \(the config's machines\), "
                                       r"but submit runs it on \S*lab\.yaml")
        self.assertFalse(os.path.exists(self.user.experiment_dir("nni_machines")))


if __name__ == "__main__":
    main()
