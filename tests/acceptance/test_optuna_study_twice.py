"""Issue 32: an Optuna script that calls study.optimize() twice on the same study (or optimizes
a study that already holds trials) runs unchanged, and the second round builds on the first, as
Optuna's sampler does: the finished trials are what the search already knows (points with their
values), not forgotten and not run again. Checked from the two experiments' histories and from
the study the script prints. Trials enqueued before each round (study.enqueue_trial) run first
with their params, keeping their numbers and user attributes."""
import json
import re
import unittest

from acceptance import main, project_for


class OptunaStudyTwice(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = project_for(cls, "optuna_study_twice")
        cls.run_ = cls.user.engine("run", "tune_twice.py", timeout=170)

    def values(self, name):
        return [json.loads(r)["value"] for (r,) in self.user.sql(
            name, "SELECT last_result FROM trials ORDER BY id")]

    def test_each_round_is_an_experiment_and_the_study_holds_both(self):
        self.assertEqual(self.run_.code, 0, str(self.run_))
        self.assertIn("After the first round: 6 trials", self.run_.out)
        self.assertIn("After the second round: 12 trials", self.run_.out)
        numbers = json.loads(re.search(r"Numbers: (\[.*\])", self.run_.out).group(1))
        self.assertEqual(numbers, list(range(12)))
        printed = json.loads(re.search(r"Values: (\[.*\])", self.run_.out).group(1))
        first, second = self.values("twice"), self.values("twice-2")
        self.assertEqual((len(first), len(second)), (6, 6))
        for mine, theirs in zip(printed, first + second):
            self.assertAlmostEqual(mine, theirs, places=9)
        best = float(re.search(r"After the second round: 12 trials, best ([-0-9.]+)",
                               self.run_.out).group(1))
        self.assertAlmostEqual(best, min(first + second), places=5)

    def test_the_second_round_starts_from_what_the_first_found(self):
        self.assertEqual(self.run_.code, 0, str(self.run_))
        configs = [json.loads(c) for (c,) in self.user.sql(
            "twice", "SELECT config FROM trials ORDER BY id")]
        spec = json.loads(self.user.sql("twice-2", "SELECT spec_text FROM experiment")[0][0])
        search = spec["search"]
        # The finished trials, then the trial enqueued for the second round (to run: no value).
        self.assertEqual(search["points_to_evaluate"], configs + [{"x": 1.6}])
        self.assertIsNone(search["evaluated_rewards"][6])
        for told, value in zip(search["evaluated_rewards"], self.values("twice")):
            self.assertAlmostEqual(told, value, places=9)
        # The searcher took them as finished trials (its state, as resume reads it): six known,
        # six run; the first round's spec told it nothing.
        state = json.loads(self.user.sql("twice-2", "SELECT searcher_state FROM experiment")[0][0])
        self.assertEqual(len(state["observations"]), 12, state.keys())
        first_spec = json.loads(self.user.sql("twice", "SELECT spec_text FROM experiment")[0][0])
        self.assertNotIn("evaluated_rewards", first_spec["search"])

    def test_enqueued_trials_run_first_with_their_params_and_numbers(self):
        self.assertEqual(self.run_.code, 0, str(self.run_))
        trials = json.loads(re.search(r"Trials: (\[.*\])", self.run_.out).group(1))
        # Each round's first trial is the enqueued one: number 0, then number 6 (the study's
        # numbering), finished with the params given, the user attribute kept.
        self.assertEqual(trials[0]["params"], {"x": 1.4, "width": 3})
        self.assertEqual(trials[0]["user_attrs"]["source"], "notebook")
        self.assertEqual(trials[6]["params"]["x"], 1.6)
        self.assertIn(trials[6]["params"]["width"], range(1, 9))  # not given: drawn
        self.assertEqual([t["state"] for t in trials], ["COMPLETE"] * 12)
        # The objective saw the number the study gives each trial.
        self.assertEqual([t["user_attrs"]["number_seen"] for t in trials], list(range(12)))
        # The histories: each experiment's first trial ran those params.
        first = json.loads(self.user.sql("twice", "SELECT config FROM trials ORDER BY id")[0][0])
        second = json.loads(self.user.sql("twice-2", "SELECT config FROM trials ORDER BY id")[0][0])
        self.assertEqual(first, {"x": 1.4, "width": 3})
        self.assertEqual(second["x"], 1.6)


if __name__ == "__main__":
    main()
