"""Case 3: Ray's PBT function example, translated, with a population of 8 on 2 slots: the
population must coexist (Ray pauses a trial at each perturbation interval while others wait),
exploits copy checkpoints, and every trial ends at the stop rule (issue 16, defect 8)."""
import json
import os
import unittest

from acceptance import live_checkpoints, main, project_for, results_by_trial

NAME = "pbt-function"
POPULATION = 8
INTERVAL = 4
ITERATIONS = 30


class RayPbtFunction(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = project_for(cls, "ray_pbt_function")
        cls.run_ = cls.user.engine("run", "experiment.yaml")

    def test_every_trial_runs_to_the_stop_rule(self):
        self.assertEqual(self.run_.code, 0, str(self.run_))
        rows = self.user.sql(NAME, "SELECT id, status, iteration FROM trials")
        self.assertEqual(len(rows), POPULATION)
        for trial, status, iteration in rows:
            self.assertEqual((status, iteration), ("TERMINATED", ITERATIONS), trial)

    def test_the_population_coexists(self):
        # Ray: "yield time to other trials" at each perturbation interval. Every member has
        # reported before any member is two intervals in; run pair by pair, the first two
        # trials finish before the third starts.
        rows = self.user.sql(NAME, "SELECT seq, trial_id, iteration FROM results ORDER BY seq")
        first_seq = {}
        for seq, trial, _ in rows:
            first_seq.setdefault(trial, seq)
        beyond = [(seq, trial, it) for seq, trial, it in rows if it > 2 * INTERVAL]
        self.assertTrue(beyond)
        seq, trial, iteration = beyond[0]
        late = sorted(t for t, s in first_seq.items() if s > seq)
        self.assertEqual(late, [], "%s reached iteration %d before %s had reported at all: the "
                         "population of %d never coexisted on 2 slots\n%s"
                         % (trial, iteration, ", ".join(late), POPULATION, self.run_))

    def test_exploits_copy_a_better_trial_and_perturb_its_config(self):
        exploits = self.user.sql(NAME, "SELECT trial_id, source_trial_id, iteration, old_config, "
                                       "new_config FROM exploits")
        self.assertTrue(exploits, "no exploit recorded\n%s" % self.run_)
        for trial, source, iteration, old_config, new_config in exploits:
            self.assertNotEqual(trial, source)
            self.assertNotEqual(json.loads(old_config), json.loads(new_config),
                                "%s at %d: explore left the config as it was" % (trial, iteration))

    def test_results_of_every_member_end_at_the_stop_rule(self):
        # An exploit may take a trial back to an earlier checkpoint of a better one, so an
        # iteration can be reported twice; none goes past the stop rule.
        by_trial = results_by_trial(self.user, NAME)
        self.assertEqual(len(by_trial), POPULATION)
        for trial, iterations in by_trial.items():
            self.assertEqual(max(iterations), ITERATIONS, trial)
            self.assertEqual(iterations[-1], ITERATIONS, trial)

    def test_kept_checkpoints_exist_on_disk(self):
        rows = live_checkpoints(self.user, NAME)
        self.assertTrue(rows, "no checkpoint kept\n%s" % self.run_)
        for trial, iteration, path in rows:
            self.assertTrue(os.path.isfile(os.path.join(path, "checkpoint.json")),
                            "%s iteration %d: %s" % (trial, iteration, path))

    def test_best_prints_a_config(self):
        best = self.user.best(NAME, "--format", "json")
        self.assertEqual(best.code, 0, str(best))
        self.assertIn('"lr"', best.out)


if __name__ == "__main__":
    main()
