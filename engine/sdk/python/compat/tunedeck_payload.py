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
