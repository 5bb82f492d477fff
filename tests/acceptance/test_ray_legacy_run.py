"""Issue 32: Ray Tune 1.x-style scripts run unchanged with `tunedeck-engine run`: tune.run with a
class Trainable (self.config in setup, save_checkpoint returning a file path that load_checkpoint
opens, a crash retried from it), and tune.run with a function trainable using tune.report(**kw),
tune.checkpoint_dir and PBT mutations written as a lambda."""
import json
import os
import re
import unittest

from acceptance import main, project_for, read_lines, results_by_trial


class RayLegacyRun(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = project_for(cls, "ray_legacy_run")
        cls.class_run = cls.user.engine("run", "train_class.py")
        cls.pbt_run = cls.user.engine("run", "train_pbt.py")

    def test_class_trainable_runs_every_grid_point_to_the_stop_rule(self):
        self.assertEqual(self.class_run.code, 0, str(self.class_run))
        rows = self.user.sql("legacy_counter", "SELECT config, status, iteration FROM trials")
        self.assertEqual(sorted(json.loads(c)["rate"] for c, _, _ in rows), [0.1, 0.3])
        self.assertEqual({(s, i) for _, s, i in rows}, {("TERMINATED", 8)})

    def test_class_trainable_restores_the_file_save_checkpoint_returned(self):
        for trial, folder in self.user.trial_dirs("legacy_counter").items():
            self.assertEqual(read_lines(os.path.join(folder, "restored_from.txt")),
                             ["counter.json 4"], "%s\n%s" % (trial, self.class_run))
        by_trial = results_by_trial(self.user, "legacy_counter")
        for trial, iterations in by_trial.items():
            self.assertEqual(sorted(iterations), list(range(1, 9)), trial)

    def test_class_script_prints_the_best_config(self):
        self.assertIn('best_config: {"rate": 0.3}', self.class_run.out, str(self.class_run))

    def test_pbt_function_runs_with_lambda_mutations(self):
        self.assertEqual(self.pbt_run.code, 0, str(self.pbt_run))
        rows = self.user.sql("legacy_pbt", "SELECT status, iteration FROM trials")
        self.assertEqual(len(rows), 4)
        self.assertEqual({r for r in rows}, {("TERMINATED", 12)})
        spec = json.loads(self.user.sql("legacy_pbt", "SELECT spec_text FROM experiment")[0][0])
        lr = spec["scheduler"]["hyperparam_mutations"]["lr"]["uniform"]
        # 200 draws of random.uniform(0.001, 0.1) span nearly all of it.
        self.assertTrue(0.001 <= lr[0] < 0.01 and 0.09 < lr[1] <= 0.1, lr)
        self.assertEqual(spec["scheduler"]["hyperparam_mutations"]["momentum"],
                         {"choice": [0.5, 0.7, 0.9, 0.99]})

    def test_custom_explore_fn_shapes_every_exploit(self):
        # Ray calls custom_explore_fn on each explored config; the trial goes on with what it
        # returns. Each exploit's new config passed through it (its counter), within its clamps,
        # although the lambda draws lr up to 0.1 and the list holds 0.99.
        self.assertEqual(self.pbt_run.code, 0, str(self.pbt_run))
        exploits = self.user.sql("legacy_pbt", "SELECT trial_id, new_config FROM exploits "
                                               "ORDER BY id")
        self.assertGreater(len(exploits), 0, str(self.pbt_run))
        last = {}
        for trial, new in exploits:
            new = json.loads(new)
            self.assertLessEqual(new["lr"], 0.08, new)
            self.assertNotEqual(new["momentum"], 0.99, new)
            self.assertGreaterEqual(new["explored"], 1, new)
            last[trial] = new
        # The history's configs are what the trials went on with.
        for trial, config in self.user.sql("legacy_pbt", "SELECT id, config FROM trials"):
            if trial in last:
                self.assertEqual(json.loads(config), last[trial])
        # What the function printed did not reach the engine's answer (it went to stderr).
        self.assertNotIn("explore_command", self.pbt_run.out + self.pbt_run.err)

    def test_pbt_checkpoint_dirs_reach_the_history(self):
        kept = self.user.sql("legacy_pbt", "SELECT trial_id, path FROM checkpoints")
        self.assertGreater(len(kept), 0, str(self.pbt_run))
        printed = re.search(r"best_config: (\{.*\})", self.pbt_run.out)
        self.assertIsNotNone(printed, str(self.pbt_run))
        # The best trial's config, with the counter custom_explore_fn adds once it explored.
        self.assertEqual(set(json.loads(printed.group(1))) - {"explored"}, {"lr", "momentum"})


if __name__ == "__main__":
    main()
