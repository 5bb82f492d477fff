"""What a Python user of Tunedeck does outside a trial: run experiments with the real
tunedeck-engine, then read them with the package the engine installs (the copy in the build
tree's share/tunedeck/sdk/python, laid out as in an installed tree). Standard library only; run
by the system's python3, where Debian's python3-pandas and python3-optuna are."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BIN_DIR = os.environ.get("TUNEDECK_BIN_DIR") or os.path.join(HERE, "..", "..", "build", "bin")
ENGINE = os.path.join(BIN_DIR, "tunedeck-engine")
SDK = os.path.normpath(os.path.join(BIN_DIR, "..", "share", "tunedeck", "sdk", "python"))
sys.path.insert(0, SDK)


def user_env(**extra):
    env = dict(os.environ)
    env["PATH"] = "/usr/bin:/bin:" + env.get("PATH", "")
    env["PYTHONPATH"] = SDK
    env.update(extra)
    return env


class Project:
    """A copy of a case folder in a fresh temporary folder, with its own results root."""

    def __init__(self, case):
        self.root = tempfile.mkdtemp(prefix="tunedeck-python-%s-" % case)
        self.folder = os.path.join(self.root, "project")
        shutil.copytree(os.path.join(HERE, case), self.folder,
                        ignore=shutil.ignore_patterns("__pycache__"))
        self.results = os.path.join(self.root, "results")

    def cleanup(self):
        shutil.rmtree(self.root, ignore_errors=True)

    def engine(self, *args):
        return subprocess.run([ENGINE, *args], cwd=self.folder, env=user_env(), text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)

    def python(self, code, **env):
        """Runs `code` as a user's script with the system's python3."""
        return subprocess.run(["/usr/bin/python3", "-c", code], cwd=self.folder,
                              env=user_env(**env), text=True, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=120)

    def cli_best(self, folder, scope):
        """(trial id, config) that `tunedeck-engine best --scope` prints."""
        out = self.engine("best", folder, "--format", "json", "--scope", scope)
        if out.returncode != 0:
            raise AssertionError(out.stdout + out.stderr)
        trial = out.stderr.split("best trial ", 1)[1].split(" ", 1)[0]
        return trial, json.loads(out.stdout)
