"""The median rule with function trainables that cannot save on request (issue 31): the weak
trial is stopped, and no trial is paused and started again from nothing. Before, trials were
paused "giving way to waiting trials" over and over, restarted from iteration 0 each time, and
the weak one ran to its end."""
import json
import unittest

from acceptance import main, project_for, results_by_trial

NAME = "median-pruning"


class MedianPruning(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = project_for(cls, "median_pruning")
        cls.run_ = cls.user.engine("run", "experiment.yaml", timeout=120)
        cls.quality = {trial: json.loads(config)["quality"] for trial, config in
                       cls.user.sql(NAME, "SELECT id, config FROM trials")}

    def test_the_run_succeeds(self):
        self.assertEqual(self.run_.code, 0, str(self.run_))
        self.assertEqual(len(self.quality), 4)

    def test_the_weak_trial_is_stopped_early(self):
        weak = min(self.quality, key=self.quality.get)
        status, iteration = self.user.sql(NAME, "SELECT status, iteration FROM trials WHERE id = ?",
                                          weak)[0]
        self.assertEqual(status, "TERMINATED")
        self.assertLess(iteration, 20, "%s (quality %s) ran to the end\n%s"
                        % (weak, self.quality[weak], self.run_))

    def test_the_best_trial_runs_to_the_end(self):
        best = max(self.quality, key=self.quality.get)
        self.assertEqual(self.user.sql(NAME, "SELECT iteration FROM trials WHERE id = ?",
                                       best)[0][0], 20)

    def test_no_trial_starts_again_from_nothing(self):
        for trial, iterations in results_by_trial(self.user, NAME).items():
            self.assertEqual(iterations, list(range(1, len(iterations) + 1)), trial)
        paused = self.user.sql(NAME, "SELECT COUNT(*) FROM events WHERE type = 'trial_status' "
                                     "AND payload LIKE '%PAUSED%'")[0][0]
        self.assertEqual(paused, 0, str(self.run_))


if __name__ == "__main__":
    main()
