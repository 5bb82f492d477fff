"""Issue 32: a Ray Tune run interrupted with Ctrl-C continues with Tuner.restore(path).fit(), as
Ray users do: every trial goes on from its latest checkpoint to the end, no iteration is run
twice, and the restored ResultGrid names the best trial."""
import os
import signal
import unittest

from acceptance import main, project_for, results_by_trial


class RayRestore(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = project_for(cls, "ray_restore")
        driver = cls.user.start("run", "train_slow.py")
        cls.user.wait_until(lambda: len(cls.user.sql(
            "slow_steps", "SELECT seq FROM results")) >= 6, 60, "six results")
        os.kill(driver.pid, signal.SIGINT)  # Ctrl-C
        driver.wait(timeout=60)
        driver.log.seek(0)
        cls.first = driver.log.read()
        driver.log.close()
        cls.interrupted = cls.user.sql("slow_steps", "SELECT id, status, iteration FROM trials")
        cls.restored = cls.user.engine("run", "restore.py", cls.user.results)

    def test_the_first_run_was_interrupted_part_way(self):
        self.assertIn("interrupted", self.first)
        self.assertTrue(any(i < 12 for _, _, i in self.interrupted), self.interrupted)

    def test_restore_runs_every_trial_to_the_end(self):
        self.assertEqual(self.restored.code, 0, str(self.restored))
        rows = self.user.sql("slow_steps", "SELECT status, iteration FROM trials")
        self.assertEqual(rows, [("TERMINATED", 12)] * 2, str(self.restored))
        self.assertIn("restored: 2 trials, best speed 2, progress 24", self.restored.out)

    def test_no_iteration_runs_twice(self):
        for trial, iterations in results_by_trial(self.user, "slow_steps").items():
            self.assertEqual(sorted(iterations), list(range(1, 13)), trial)


if __name__ == "__main__":
    main()
