"""tunedeck.run from a Jupyter notebook, executed by `jupyter nbconvert --execute`: the progress
is one HTML <progress> display updated in place, and the analysis it returns names the trial
`tunedeck-engine best` names. Needs Debian's jupyter-nbconvert and python3-ipykernel, which
scripts/test installs (scripts/lib.sh, TEST_PACKAGES): without them the test fails, saying so."""
import json
import os
import shutil
import subprocess
import sys
import unittest

import python_sdk

NOTEBOOK = {
    "cells": [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
               "source": "import tunedeck\n"
                         "analysis = tunedeck.run('experiment.yaml', results='results')\n"
                         "print(analysis.best_trial(scope='all')['trial_id'])\n"}],
    "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                "language": "python"}},
    "nbformat": 4, "nbformat_minor": 5,
}


class RunFromANotebook(unittest.TestCase):
    def test_progress_display_and_analysis(self):
        project = python_sdk.Project("curves")
        self.addCleanup(project.cleanup)
        with open(os.path.join(project.folder, "run.ipynb"), "w") as f:
            json.dump(NOTEBOOK, f)
        out = subprocess.run(["jupyter-nbconvert", "--to", "notebook", "--execute", "run.ipynb",
                              "--output", "executed.ipynb"], cwd=project.folder,
                             env=python_sdk.user_env(), text=True, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, timeout=120)
        self.assertEqual(out.returncode, 0, out.stdout)
        with open(os.path.join(project.folder, "executed.ipynb")) as f:
            outputs = json.load(f)["cells"][0]["outputs"]
        displays = [o for o in outputs if o["output_type"] == "display_data"]
        self.assertEqual(len(displays), 1)  # one display, updated in place
        html = "".join(displays[0]["data"]["text/html"])
        self.assertIn('<progress value="5" max="5"', html)
        self.assertIn("5/5 trials done, 0 running, best loss 0.05 (", html)
        printed = "".join("".join(o["text"]) for o in outputs if o["output_type"] == "stream"
                          and o["name"] == "stdout").strip()
        folder = os.path.join(project.folder, "results", "curves")
        self.assertEqual(printed, project.cli_best(folder, "all")[0])


if __name__ == "__main__":
    if not shutil.which("jupyter-nbconvert") or subprocess.run(
            ["/usr/bin/python3", "-c", "import ipykernel"], capture_output=True).returncode:
        print("FAIL: the notebook test needs jupyter-nbconvert and python3-ipykernel "
              "(apt install jupyter-nbconvert python3-ipykernel; scripts/test installs them)")
        sys.exit(1)
    unittest.main(verbosity=2)
