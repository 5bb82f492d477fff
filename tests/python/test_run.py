"""tunedeck.run from a user's script: the experiment as a dict or a file, the engine found beside
the package, progress in a log and on a terminal, the analysis it returns, and a refused
experiment's message."""
import json
import os
import pty
import subprocess
import unittest

import python_sdk

SPEC = {
    "name": "from-a-script",
    "trainable": {"command": "python3 train.py"},
    "search_space": {"shape": {"grid": ["late", "jump"]}, "model": {"width": 3, "lr": 0.5}},
    "metric": "loss",
    "mode": "min",
    "seed": 5,
}

SCRIPT = """
import json, tunedeck
analysis = tunedeck.run(%s, results=%r)
print(json.dumps({"folder": analysis.folder, "best": analysis.best_config(),
                  "trials": len(analysis.trials())}))
"""


class RunFromAScript(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.project = python_sdk.Project("curves")
        cls.addClassCleanup(cls.project.cleanup)

    def test_a_dict_runs_and_returns_its_analysis(self):
        out = self.project.python(SCRIPT % (json.dumps(SPEC), self.project.results))
        self.assertEqual(out.returncode, 0, out.stderr)
        answer = json.loads(out.stdout.strip().splitlines()[-1])
        self.assertEqual(answer["trials"], 2)
        self.assertEqual(answer["folder"], os.path.join(self.project.results, "from-a-script"))
        self.assertEqual(answer["best"], self.project.cli_best(answer["folder"], "last")[1])
        self.assertEqual(answer["best"]["shape"], "jump")
        # Not a terminal: one line per change, the last one with the total and the best.
        lines = [l for l in out.stderr.splitlines() if l.startswith("tunedeck: ")]
        self.assertIn("tunedeck: 2/2 trials done, 0 running, best loss 0.1 (", lines[-1])

    def test_a_file_on_a_terminal_shows_a_bar(self):
        leader, follower = pty.openpty()
        proc = subprocess.Popen(
            ["/usr/bin/python3", "-c", "import tunedeck; tunedeck.run('experiment.yaml', "
             "results=%r)" % self.project.results],
            cwd=self.project.folder, env=python_sdk.user_env(), stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=follower)
        os.close(follower)
        seen = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the terminal closes with the process
                break
            if not chunk:
                break
            seen += chunk
        os.close(leader)
        self.assertEqual(proc.wait(timeout=60), 0, seen)
        self.assertIn(b"\r[" + b"#" * 24 + b"] 5/5 trials done", seen)
        self.assertIn(b"\r[-----", seen)  # drawn in place from the start

    def test_a_refused_experiment_raises_with_the_engines_message(self):
        bad = dict(SPEC, num_samples=0)
        out = self.project.python("import tunedeck; tunedeck.run(%s, results=%r)"
                                  % (json.dumps(bad), self.project.results))
        self.assertNotEqual(out.returncode, 0)
        # Checked before the run, named as the dict's file in the current folder would be.
        self.assertRegex(out.stderr, r"tunedeck_analysis\.launcher\.EngineError: .*/project/"
                                     r"from-a-script\.yaml:\d+:\d+: num_samples: must be >= 1")


if __name__ == "__main__":
    unittest.main(verbosity=2)
