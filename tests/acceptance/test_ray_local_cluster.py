"""Case 6: Ray's cluster file for the local provider (`type: local` with `head_ip` and
`worker_ips`, as in Ray's example-full.yaml) loads as the SSH cluster it describes; Ray-only
keys are warnings naming their place, not errors (issue 16, defect 9)."""
import re
import unittest

from acceptance import main, project_for

RAY_ONLY = ["upscaling_speed", "docker", "idle_timeout_minutes", "head_node", "worker_nodes",
            "cluster_synced_files", "file_mounts_sync_continuously", "rsync_filter",
            "head_setup_commands", "head_start_ray_commands", "worker_start_ray_commands"]


class RayLocalCluster(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = project_for(cls, "ray_local_cluster")
        cls.validated = cls.user.engine("validate", "experiment.yaml")

    def test_validate_accepts_the_file(self):
        self.assertEqual(self.validated.code, 0, str(self.validated))
        self.assertIn("ok.", self.validated.out, str(self.validated))

    def test_no_key_is_unknown_and_nothing_is_an_error(self):
        for line in self.validated.err.splitlines():
            self.assertTrue(line.startswith("warning: "), "an error: %s\n%s"
                            % (line, self.validated))
        self.assertNotIn("unknown key", self.validated.text, str(self.validated))

    def test_each_ray_only_key_is_a_warning_naming_its_place(self):
        for key in RAY_ONLY:
            self.assertRegex(self.validated.err,
                             r"warning: cluster\.yaml:\d+:\d+: %s: " % re.escape(key),
                             "no warning for %s\n%s" % (key, self.validated))

    def test_the_local_provider_with_hosts_is_not_refused(self):
        self.assertNotIn("type local means this machine only", self.validated.text,
                         str(self.validated))
        self.assertNotIn("worker_ips lists 0", self.validated.text,
                         "worker_ips was not read\n%s" % self.validated)

    def test_validate_on_the_cluster_file_says_it_is_one(self):
        # Issue 32: it listed cluster_name, provider and auth as unknown experiment keys.
        outcome = self.user.engine("validate", "cluster.yaml")
        self.assertEqual(outcome.code, 0, str(outcome))
        self.assertRegex(outcome.out, r"cluster\.yaml: ok\. A cluster file \(not an experiment\): "
                                      r"cluster '[^']+', provider ssh, \d+ nodes")
        self.assertNotIn("unknown key", outcome.text, str(outcome))


if __name__ == "__main__":
    main()
