"""Issue 32: what Tunedeck's Ray Tune compatibility cannot run fails at once, naming it, before
any trial starts: a connection to a Ray cluster, Ray Datasets, Ray actors."""
import os
import time
import unittest

from acceptance import main, project_for


class RayRefused(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = project_for(cls, "ray_refused")

    def refused(self, script, named):
        started = time.monotonic()
        outcome = self.user.engine("run", script, timeout=60)
        self.assertNotEqual(outcome.code, 0, str(outcome))
        self.assertIn(named, outcome.err, str(outcome))
        self.assertLess(time.monotonic() - started, 30)
        self.assertFalse(os.path.isdir(self.user.results) and
                         [n for n in os.listdir(self.user.results) if not n.startswith(".")],
                         "an experiment was started: %s" % outcome)

    def test_cluster_address(self):
        self.refused("connect_cluster.py", "ray.init(address='ray://head.example.org:10001') "
                                           "is not supported")

    def test_datasets(self):
        self.refused("datasets.py", "ray.data (Ray Datasets) is not supported")

    def test_actors(self):
        self.refused("actor_inside.py", "@ray.remote (Ray tasks and actors) is not supported")

    def test_missing_script(self):
        outcome = self.user.engine("run", "no_such_script.py")
        self.assertEqual(outcome.code, 2)
        self.assertIn("no_such_script.py: no such script", outcome.err)


if __name__ == "__main__":
    main()
