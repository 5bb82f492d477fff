"""Tunedeck's stand-in for the `ray` package, so a Ray Tune script runs unchanged under
``tunedeck-engine run SCRIPT.py`` (../../README.md, "Ray Tune scripts"): the script is the driver;
``Tuner(...).fit()`` and ``tune.run(...)`` hand the experiment to tunedeck-engine and wait for it.

Only Ray Tune's API is here. Ray's cluster runtime is not: tasks, actors, the object store and a
connection to a running Ray cluster fail at once with a message naming them. This folder is on the
path of the driver and its trials only (the engine puts it there); nothing named `ray` is installed
for the system. Not thread-safe (one driver thread, as Ray's Tune).
"""

__version__ = "2.9.0+tunedeck"

_initialized = False


class RayUnsupported(RuntimeError):
    """A Ray feature Tunedeck does not provide."""


def unsupported(what, instead):
    raise RayUnsupported("%s is not supported by Tunedeck's Ray Tune compatibility: %s"
                         % (what, instead))


def init(address=None, *args, **kwargs):
    """Ray's init(): nothing to start (the engine runs the trials). A cluster address is refused:
    Tunedeck's cluster is a cluster file (`cluster:` in an experiment), not a running Ray."""
    global _initialized
    if address not in (None, "local", "auto"):
        unsupported("ray.init(address=%r)" % (address,),
                    "trials run where tunedeck-engine puts them; to use other machines, write "
                    "a cluster file and run `tunedeck-engine submit CLUSTER.yaml SCRIPT.py`")
    if address == "auto":
        import os

        if os.environ.get("RAY_ADDRESS"):
            unsupported("ray.init(address='auto') with RAY_ADDRESS set",
                        "Tunedeck does not join a running Ray cluster")
    _initialized = True


def shutdown(*args, **kwargs):
    global _initialized
    _initialized = False


def is_initialized():
    return _initialized


def remote(*args, **kwargs):
    unsupported("@ray.remote (Ray tasks and actors)",
                "run the work inside the trainable itself; each trial is its own process")


def get(*args, **kwargs):
    unsupported("ray.get (the object store)", "pass data with tune.with_parameters(...)")


def put(value, *args, **kwargs):
    unsupported("ray.put (the object store)", "pass data with tune.with_parameters(...)")


def wait(*args, **kwargs):
    unsupported("ray.wait (Ray tasks)", "run the work inside the trainable itself")


def get_actor(*args, **kwargs):
    unsupported("ray.get_actor (Ray actors)", "run the work inside the trainable itself")


def available_resources():
    import os

    return {"CPU": float(os.cpu_count() or 1)}


cluster_resources = available_resources
