"""NNI trial code as its user writes it: parameters from nni.get_next_parameter(), an
intermediate result per epoch, a final result at the end."""
import json
import math
import os

import nni


def accuracy(params, epoch):
    lr_term = 1.0 - abs(math.log10(params["learning_rate"]) + 2.0) / 3.0
    return max(0.0, lr_term * (1.0 - params["dropout"] / 2) * (1.0 - 0.5 ** (epoch + 1)))


def main():
    params = {"learning_rate": 0.001, "batch_size": 32, "dropout": 0.3}
    params.update(nni.get_next_parameter())
    with open("trial_%s.json" % nni.get_trial_id(), "w") as f:
        json.dump({"sequence": nni.get_sequence_id(), "params": params}, f)
    acc = 0.0
    for epoch in range(5):
        acc = accuracy(params, epoch)
        nni.report_intermediate_result(acc)
    nni.report_final_result({"default": acc, "epochs": 5})


if __name__ == "__main__":
    main()
