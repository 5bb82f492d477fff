"""The code version a run recorded (code/version.json in the experiment folder: the git commit,
branch and dirty flag of the trainable's working folder, or a content hash of its files); None
for a folder recorded before runs kept it."""

import json
import os


def read_code_version(folder):
    path = os.path.join(folder, "code", "version.json")
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None
