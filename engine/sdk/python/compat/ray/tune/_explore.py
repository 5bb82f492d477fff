"""pbt's explore_command for a Ray script's PopulationBasedTraining(custom_explore_fn=...):
``python3 -m ray.tune._explore PAYLOAD``. The engine runs it at each exploit with the config PBT
explored (JSON, on standard input); as Ray does after its own perturbation, the script's
function is called on it, and the config it returns is printed for the engine (JSON, on standard
output). What the function prints goes to standard error."""

import json
import sys


def main(path):
    import cloudpickle  # noqa: F401  (pickle.load needs it for what it pickled)
    import pickle

    with open(path, "rb") as f:
        explore = pickle.load(f)["explore_fn"]
    config = json.load(sys.stdin)
    out, sys.stdout = sys.stdout, sys.stderr
    try:
        explored = explore(config)
    finally:
        sys.stdout = out
    if explored is None:
        sys.exit("custom_explore_fn returned None: it must return the config (Ray asserts the "
                 "same)")
    if not isinstance(explored, dict):
        sys.exit("custom_explore_fn returned %s: it must return the config, a dict"
                 % type(explored).__name__)
    try:
        text = json.dumps(explored, allow_nan=False)
    except (TypeError, ValueError) as error:
        sys.exit("custom_explore_fn returned a config the engine cannot record (%s): give it "
                 "numbers, strings, booleans, lists and dicts" % error)
    print(text, flush=True)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python3 -m ray.tune._explore PAYLOAD")
    main(sys.argv[1])
