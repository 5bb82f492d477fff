"""NNI's mnist example trial, with tunedeck in place of nni (get_next_parameter ->
get_config, report_intermediate_result / report_final_result -> report). The model is a
stand-in that scores the parameters, so the example needs no data set."""
import json
import math
import os

import tunedeck


def get_params():
    # Default parameters, updated by the tuner's (NNI's own pattern).
    params = {"batch_size": 32, "hidden_size": 512, "lr": 0.001, "momentum": 0.5,
              "weight_scale": 1.0}
    params.update(tunedeck.get_config())
    return params


def main(params):
    # What the trial received, with Python's types (NNI delivers JSON numbers as written).
    with open(os.path.join(tunedeck.get_trial_dir(), "params.json"), "w") as f:
        json.dump({k: [v, type(v).__name__] for k, v in params.items()}, f)
    accuracy = 0.0
    for epoch in range(1, 4):
        quality = math.exp(-abs(math.log10(params["lr"]) + 2)) * (0.5 + params["momentum"] / 2)
        quality *= min(1.0, params["hidden_size"] / 512) * params["weight_scale"] / 2
        accuracy = min(0.99, accuracy + quality / epoch / math.sqrt(params["batch_size"] / 16))
        tunedeck.report({"default": accuracy, "epoch": epoch})  # report_intermediate_result


if __name__ == "__main__":
    main(get_params())
