"""The code version of a run (code/version.json): recorded at `run` for a clean, a dirty and a
folder that is no git repository, carried by show, best, export and tunedeck.load, and
re-created by `rerun`, which reproduces a deterministic trainable's results bit for bit."""
import json
import os
import shutil
import subprocess
import unittest

import python_sdk
import tunedeck

# What differs between two runs of the same code and config: the clock, and the id of a trial
# run alone by `rerun --trial` (the dict's keys keep the ids).
NOT_REPRODUCED = ("time_this_iter_s", "time_total_s", "timestamp", "trial_id")


def git(folder, *args):
    return subprocess.run(["git", *args], cwd=folder, check=True, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t",
                                   GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t")).stdout


def losses(project, folder):
    """{trial_id: (config, [result without its timing])} as `export` prints them."""
    out = project.engine("export", folder, "--format", "json")
    return {t["trial_id"]: (t["config"], [{k: v for k, v in r.items()
                                           if k not in NOT_REPRODUCED}
                                          for r in t["results"]])
            for t in json.loads(out.stdout)}


class CodeVersion(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.project = python_sdk.Project("versioned")
        cls.addClassCleanup(cls.project.cleanup)
        git(cls.project.folder, "init", "-q", "-b", "main")
        with open(os.path.join(cls.project.folder, ".gitignore"), "w") as f:
            f.write("__pycache__/\n")
        git(cls.project.folder, "add", ".")
        git(cls.project.folder, "commit", "-q", "-m", "first")
        cls.commit = git(cls.project.folder, "rev-parse", "HEAD").strip()

    def run_engine(self, *args):
        out = self.project.engine(*args)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        return out

    def version(self, name):
        with open(os.path.join(self.project.results, name, "code", "version.json")) as f:
            return json.load(f)

    def test_1_a_clean_work_tree(self):
        out = self.run_engine("run", "experiment.yaml", "--results", self.project.results)
        self.assertIn("Code: git %s on main, clean" % self.commit[:12], out.stdout)
        version = self.version("versioned")
        self.assertEqual((version["kind"], version["commit"], version["branch"],
                          version["dirty"]), ("git", self.commit, "main", False))
        self.assertNotIn("diff", version)
        self.assertEqual(version["untracked"], [])
        folder = os.path.join(self.project.results, "versioned")
        show = self.run_engine("show", folder)
        self.assertIn("Code: git %s on main, clean" % self.commit[:12], show.stdout)
        self.assertEqual(tunedeck.load(folder).code_version["commit"], self.commit)

    def test_2_dirty_with_untracked_files_and_its_rerun(self):
        folder = self.project.folder
        with open(os.path.join(folder, "model.py"), "w") as f:
            f.write("SCALE = 2.5\n")
        with open(os.path.join(folder, "extra.py"), "w") as f:
            f.write("OFFSET = 0.125\n")
        with open(os.path.join(folder, "weights.bin"), "wb") as f:
            f.write(b"\0" * (2 << 20))  # over the 1 MiB limit: listed, not kept
        # An untracked link (a data set kept elsewhere): git status lists it, so it is dirty.
        os.symlink("../datasets/mnist", os.path.join(folder, "data"))
        self.run_engine("run", "experiment.yaml", "--results", self.project.results, "--quiet")
        name = "versioned-2"
        run = os.path.join(self.project.results, name)
        version = self.version(name)
        self.assertTrue(version["dirty"])
        self.assertEqual(version["untracked"], ["extra.py"])
        self.assertEqual([s["path"] for s in version["untracked_skipped"]], ["weights.bin"])
        self.assertEqual(version["untracked_links"],
                         [{"path": "data", "target": "../datasets/mnist"}])
        self.assertEqual(os.readlink(os.path.join(run, "code", "untracked", "data")),
                         "../datasets/mnist")
        with open(os.path.join(run, "code", "diff.patch")) as f:
            self.assertIn("+SCALE = 2.5", f.read())
        # What the user sees of it: best's summary, export (json and csv), the Python package.
        best = self.run_engine("best", run)
        self.assertIn("# code: git %s on main, dirty (diff " % self.commit[:12], best.stdout)
        self.assertIn("1 untracked file kept, 1 untracked link kept, 1 too large, not kept",
                      best.stderr)
        exported = json.loads(self.run_engine("export", run, "--format", "json").stdout)
        self.assertEqual(exported[0]["code_version"]["commit"], self.commit)
        csv = self.run_engine("export", run, "--format", "csv").stdout.splitlines()
        self.assertTrue(csv[0].endswith(",code_version"), csv[0])
        self.assertTrue(csv[1].endswith(",git:%s+dirty" % self.commit), csv[1])
        original = losses(self.project, run)

        # The work tree moves on: another commit, the edit and the untracked file gone.
        os.remove(os.path.join(folder, "extra.py"))
        os.remove(os.path.join(folder, "weights.bin"))
        with open(os.path.join(folder, "model.py"), "w") as f:
            f.write("SCALE = 9.0\n")
        git(folder, "commit", "-q", "-am", "later")
        out = self.run_engine("rerun", run, "--quiet")
        self.assertIn("Code re-created in %s/code/rerun-1" % run, out.stdout)
        rerun = os.path.join(self.project.results, "versioned-rerun")  # named after the spec
        self.assertEqual(losses(self.project, rerun), original)  # bit for bit
        again = self.version("versioned-rerun")
        self.assertEqual((again["commit"], again["untracked"]), (self.commit, ["extra.py"]))

        trial = sorted(original)[1]
        self.run_engine("rerun", run, "--trial", trial, "--quiet")
        alone = losses(self.project, os.path.join(self.project.results,
                                                  "versioned-rerun-" + trial))
        self.assertEqual(list(alone.values()), [original[trial]])

        # The user deletes a rerun's code; the next rerun takes its name again.
        shutil.rmtree(os.path.join(run, "code", "rerun-1"))
        out = self.run_engine("rerun", run, "--quiet")
        self.assertIn("Code re-created in %s/code/rerun-1" % run, out.stdout)

    def test_3_a_folder_that_is_no_repository(self):
        plain = os.path.join(self.project.root, "plain")
        shutil.copytree(os.path.join(python_sdk.HERE, "versioned"), plain,
                        ignore=shutil.ignore_patterns("__pycache__"))
        results = os.path.join(self.project.root, "plain-results")
        out = self.project.engine("run", os.path.join(plain, "experiment.yaml"), "--results",
                                  results)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("Code: files sha256:", out.stdout)
        self.assertIn("(3 files, not a git repository)", out.stdout)
        run = os.path.join(results, "versioned")
        with open(os.path.join(run, "code", "version.json")) as f:
            version = json.load(f)
        self.assertEqual((version["kind"], version["files"]), ("files", 3))
        self.assertRegex(version["content_hash"], "^sha256:[0-9a-f]{64}$")
        self.assertEqual(self.project.engine("rerun", run, "--quiet").returncode, 0)
        self.assertEqual(losses(self.project, os.path.join(results, "versioned-rerun")),
                         losses(self.project, run))
        with open(os.path.join(plain, "model.py"), "w") as f:
            f.write("SCALE = 3.0\n")
        changed = self.project.engine("rerun", run)
        self.assertEqual(changed.returncode, 2)
        self.assertIn("rerun: the files of %s have changed since the run" % plain,
                      changed.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
