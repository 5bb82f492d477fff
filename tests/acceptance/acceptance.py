"""What a user does with a case folder of tests/acceptance, and what they can look at afterwards.

Each case folder holds a user's files exactly as the user wrote them (experiment.yaml, train.py,
search_space.json, cluster.yaml). A UserProject copies one into a fresh temporary folder, the
user's project folder, and runs the real tunedeck-engine there as the user would from a shell on
a fresh Debian 12 machine (the system's python3 first on PATH, where Debian's python3-sklearn
is). Everything the checks look at is what the user can see: the engine's exit code and output,
`export`, `best`, the SQLite file (read-only, as any SQLite tool would) and the trial folders.
Standard library only. One UserProject per case; not thread-safe.
"""
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
BIN_DIR = os.environ.get("TUNEDECK_BIN_DIR") or os.path.join(HERE, "..", "..", "build", "bin")
ENGINE = os.path.join(BIN_DIR, "tunedeck-engine")


class Outcome:
    """One engine command: its exit code and what it printed."""

    def __init__(self, args, code, out, err):
        self.args, self.code, self.out, self.err = args, code, out, err

    @property
    def text(self):
        return self.out + self.err

    def __str__(self):
        tail = self.text[-4000:]
        return "tunedeck-engine %s -> exit %s\n%s" % (" ".join(self.args), self.code, tail)


class UserProject:
    def __init__(self, case):
        self.case = case
        self.root = tempfile.mkdtemp(prefix="tunedeck-acceptance-%s-" % case)
        self.folder = os.path.join(self.root, "project")
        shutil.copytree(os.path.join(HERE, case), self.folder)
        self.results = os.path.join(self.root, "results")
        self.env = dict(os.environ)
        # A fresh Debian 12 machine: python3 is the system's (where python3-sklearn installs).
        self.env["PATH"] = "/usr/bin:/bin:" + self.env.get("PATH", "")
        self.env["TUNEDECK_RESULTS"] = self.results
        self.env.pop("PYTHONPATH", None)

    def cleanup(self):
        shutil.rmtree(self.root, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.folder, name)

    # --- running the engine ---------------------------------------------------------------

    def engine(self, *args, timeout=150):
        proc = subprocess.run([ENGINE, *args], cwd=self.folder, env=self.env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        return Outcome(list(args), proc.returncode, proc.stdout, proc.stderr)

    def start(self, *args):
        """Starts the engine and returns at once (to kill it)."""
        log = open(os.path.join(self.root, "engine-%d.log" % time.monotonic_ns()), "w+")
        proc = subprocess.Popen([ENGINE, *args], cwd=self.folder, env=self.env, text=True,
                                stdout=log, stderr=subprocess.STDOUT)
        proc.log = log
        return proc

    @staticmethod
    def kill_nine(proc):
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        proc.log.seek(0)
        output = proc.log.read()
        proc.log.close()
        return output

    def experiment_dir(self, name):
        return os.path.join(self.results, name)

    # --- what the user looks at afterwards ------------------------------------------------

    def export(self, name):
        outcome = self.engine("export", self.experiment_dir(name), "--format", "json")
        if outcome.code != 0:
            raise AssertionError(str(outcome))
        return json.loads(outcome.out)

    def best(self, name, *extra):
        return self.engine("best", self.experiment_dir(name), *extra)

    def sql(self, name, query, *params):
        """Rows of a read-only query on the experiment's SQLite file."""
        database = os.path.join(self.experiment_dir(name), "experiment.sqlite")
        connection = sqlite3.connect("file:%s?mode=ro" % database, uri=True, timeout=10)
        try:
            return connection.execute(query, params).fetchall()
        finally:
            connection.close()

    def trial_dirs(self, name):
        trials = os.path.join(self.experiment_dir(name), "trials")
        return {t: os.path.join(trials, t) for t in sorted(os.listdir(trials))}

    def wait_until(self, predicate, timeout, what):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if predicate():
                    return
            except (sqlite3.Error, OSError):
                pass  # the engine has not created it yet
            time.sleep(0.1)
        raise AssertionError("timed out after %ss waiting for %s" % (timeout, what))


def project_for(test_class, case):
    """A UserProject of `case` for the tests of `test_class`, removed after the last of them (also
    when setUpClass fails half way)."""
    user = UserProject(case)
    test_class.addClassCleanup(user.cleanup)
    return user


def read_lines(path):
    """The non-empty lines of a file a trainable writes, stripped; [] while it has written none."""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [line.strip() for line in f if line.strip()]


def results_by_trial(project, name):
    """{trial_id: [iteration, ...]} from the results table, in the order they were recorded."""
    rows = project.sql(name, "SELECT trial_id, iteration FROM results ORDER BY seq")
    by_trial = {}
    for trial, iteration in rows:
        by_trial.setdefault(trial, []).append(iteration)
    return by_trial


def live_checkpoints(project, name):
    """[(trial_id, iteration, path)] of the checkpoints the history says are kept."""
    return project.sql(name, "SELECT trial_id, iteration, path FROM checkpoints WHERE deleted = 0 "
                             "ORDER BY trial_id, iteration")


def main():
    unittest.main(verbosity=2)
