"""What a script's driver leaves for its trials: the trainable or objective, and what travels
with it, pickled with cloudpickle (as Ray carries a trainable), in a folder of the results root
so that ``tunedeck-engine resume`` of the experiment finds it. Shared by the Ray Tune and the
Optuna drivers."""

import os
import pickle
import time


def write_payload(root, folder, name, payload, scripts, carried):
    """Writes ``payload`` to ``<root>/<folder>/<name>-<time>-<pid>.pkl`` and returns the path.

    ``scripts`` and ``carried`` name the script kind and what is carried ("Ray Tune scripts",
    "trainable") in the error when cloudpickle is missing."""
    try:
        import cloudpickle
    except ImportError:
        raise ImportError("%s need cloudpickle to carry the %s to its trials "
                          "(Debian: apt install python3-cloudpickle)" % (scripts, carried)) from None
    folder = os.path.join(root, folder)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "%s-%s-%d.pkl" % (name, time.strftime("%Y%m%d-%H%M%S"),
                                                  os.getpid()))
    with open(path, "wb") as f:
        f.write(cloudpickle.dumps(payload, protocol=pickle.DEFAULT_PROTOCOL))
    return path


def _inside(path, folder):
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def trial_trainable(module, payload, compat):
    """The experiment's trainable for a script's trials: ``python3 -m MODULE PAYLOAD`` in the
    folder the script was started in, with ``compat`` (Tunedeck's compatibility packages), the
    script's folder and the driver's PYTHONPATH on the trials' path. ``files`` lists the payload,
    and the script's folder when the working folder does not hold it, so that a cluster with
    ``storage: copy`` carries them to its nodes as it carries the working folder."""
    import sys

    cwd = os.getcwd()
    script = os.path.dirname(os.path.abspath(sys.argv[0])) if sys.argv and sys.argv[0] else ""
    script = script if os.path.isdir(script) else cwd
    paths = [compat]
    for extra in [script] + os.environ.get("PYTHONPATH", "").split(os.pathsep):
        if extra and extra not in paths:
            paths.append(extra)
    files = [payload]
    if not _inside(script, cwd):
        files.append(script)
    return {"command": [sys.executable, "-m", module, payload], "working_dir": cwd,
            "env": {"PYTHONPATH": os.pathsep.join(paths)}, "files": files}
