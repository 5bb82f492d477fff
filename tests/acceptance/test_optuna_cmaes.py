"""Issue 32: an Optuna script whose study samples with CmaEsSampler runs unchanged under
`tunedeck-engine run SCRIPT.py`. tune_momentum.py is written against Optuna's public API only: a
define-by-run objective (continuous step size and momentum, a categorical schedule, a warm-up
asked for only with the cosine schedule). Checked from the history: every trial holds what the
objective asked for, CMA-ES searched the numbers every trial asked for, and the printed best is
the history's."""
import json
import math
import re
import statistics
import unittest

from acceptance import main, project_for

NAME = "tune_momentum"
TRIALS = 32


class OptunaCmaes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = project_for(cls, "optuna_cmaes")
        cls.run_ = cls.user.engine("run", "tune_momentum.py", timeout=170)
        rows = cls.user.sql(NAME, "SELECT id, config, last_result FROM trials ORDER BY id") \
            if cls.run_.code == 0 else []
        cls.trials = [(json.loads(config), json.loads(result or "{}"))
                      for _, config, result in rows]

    def test_every_trial_ran_as_a_tunedeck_trial_searched_by_cmaes(self):
        self.assertEqual(self.run_.code, 0, str(self.run_))
        self.assertIn("Sampler: CmaEsSampler", self.run_.out)
        self.assertIn("Trials: %d" % TRIALS, self.run_.out, str(self.run_))
        self.assertEqual(len(self.trials), TRIALS)
        statuses = {s for (s,) in self.user.sql(NAME, "SELECT status FROM trials")}
        self.assertEqual(statuses, {"TERMINATED"}, str(self.run_))
        spec = self.user.sql(NAME, "SELECT spec_text FROM experiment")[0][0]
        for piece in ('"algorithm": "cmaes"', '"n_startup_trials": 4', '"seed": 5'):
            self.assertIn(piece, spec)

    def test_configs_hold_what_the_objective_asked_for(self):
        self.assertEqual(len(self.trials), TRIALS, str(self.run_))
        schedules = set()
        for config, _ in self.trials:
            self.assertTrue(1e-4 <= config["lr"] <= 0.2, config)
            self.assertTrue(0.0 <= config["momentum"] <= 0.99, config)
            schedules.add(config["schedule"])
            self.assertEqual("warmup" in config, config["schedule"] == "cosine", config)
            if "warmup" in config:
                self.assertIsInstance(config["warmup"], int, config)
        self.assertEqual(schedules, {"constant", "cosine"})

    def test_cmaes_searched_the_numbers_every_trial_asked_for(self):
        self.assertEqual(len(self.trials), TRIALS, str(self.run_))
        # The search state the history keeps (what `resume` continues from): CMA-ES over the
        # step size and the momentum, never the choice or the warm-up only some trials have.
        state = json.loads(self.user.sql(NAME, "SELECT searcher_state FROM experiment")[0][0])
        model = state["model"]
        self.assertEqual([c["name"] for c in model["space"]], ["lr", "momentum"], model["space"])
        self.assertGreaterEqual(model["cma"]["generation"], 2, model["cma"])
        # The step sizes CMA-ES drew gather (log scale) where random ones would spread over the
        # whole range: a uniform draw on [1e-4, 0.2] has a standard deviation of 0.95 decades.
        uniform = math.log10(0.2 / 1e-4) / math.sqrt(12)
        late = statistics.pstdev([math.log10(c["lr"]) for c, _ in self.trials[-12:]])
        self.assertLess(late, 0.75 * uniform, [c["lr"] for c, _ in self.trials[-12:]])

    def test_the_printed_best_is_the_histories_best(self):
        self.assertEqual(len(self.trials), TRIALS, str(self.run_))
        value = float(re.search(r"Best value: (-?[0-9.]+)", self.run_.out).group(1))
        params = json.loads(re.search(r"Best params: (\{.*\})", self.run_.out).group(1))
        best_value, best_config = min(((r["value"], c) for c, r in self.trials),
                                      key=lambda p: p[0])
        self.assertAlmostEqual(value, best_value, places=4)
        self.assertEqual(params, best_config)


if __name__ == "__main__":
    main()
