"""Quickstart trainable: logistic regression trained by minibatch SGD with momentum, in plain
Python (standard library only), on a synthetic classification problem generated from a fixed
seed. Learning rate, momentum, L2 and batch size change the learning curve for real: too small a
rate learns slowly, too large a rate oscillates, so early stopping has something to do.

Runs under Tunedeck (tunedeck-engine run experiment.yaml) or alone (python3 train.py).
"""
import json
import math
import os
import random

import tunedeck

FEATURES = 12
TRAIN, VALID = 1500, 500


def make_data(seed=1234):
    rng = random.Random(seed)
    true_w = [rng.gauss(0, 1) for _ in range(FEATURES)]

    def sample():
        x = [rng.gauss(0, 1) for _ in range(FEATURES)]
        z = sum(w * v for w, v in zip(true_w, x)) + rng.gauss(0, 1.5)
        return x, 1 if z > 0 else 0

    return [sample() for _ in range(TRAIN)], [sample() for _ in range(VALID)]


def sigmoid(z):
    return 1 / (1 + math.exp(-z)) if z >= 0 else math.exp(z) / (1 + math.exp(z))


def evaluate(w, b, data):
    loss, correct = 0.0, 0
    for x, y in data:
        p = min(max(sigmoid(sum(wi * xi for wi, xi in zip(w, x)) + b), 1e-12), 1 - 1e-12)
        loss -= y * math.log(p) + (1 - y) * math.log(1 - p)
        correct += (p > 0.5) == (y == 1)
    return loss / len(data), correct / len(data)


def main():
    config = tunedeck.get_config()
    lr = float(config.get("lr", 0.05))
    momentum = float(config.get("momentum", 0.9))
    l2 = float(config.get("l2", 1e-4))
    batch = int(config.get("batch_size", 32))
    epochs = int(config.get("epochs", 30))

    train, valid = make_data()
    state = {"w": [0.0] * FEATURES, "b": 0.0, "vw": [0.0] * FEATURES, "vb": 0.0, "epoch": 0}
    restore = tunedeck.get_checkpoint()
    if restore:
        with open(os.path.join(restore, "state.json")) as f:
            state = json.load(f)

    def save(folder):
        with open(os.path.join(folder, "state.json"), "w") as f:
            json.dump(state, f)

    tunedeck.on_save(save)
    rng = random.Random(state["epoch"])  # the shuffle of an epoch is the same after a restore
    while state["epoch"] < epochs:
        order = list(range(len(train)))
        rng.shuffle(order)
        w, vw = state["w"], state["vw"]
        for start in range(0, len(order), batch):
            gw, gb = [0.0] * FEATURES, 0.0
            chunk = order[start:start + batch]
            for i in chunk:
                x, y = train[i]
                err = sigmoid(sum(wi * xi for wi, xi in zip(w, x)) + state["b"]) - y
                for k in range(FEATURES):
                    gw[k] += err * x[k]
                gb += err
            for k in range(FEATURES):
                vw[k] = momentum * vw[k] - lr * (gw[k] / len(chunk) + l2 * w[k])
                w[k] += vw[k]
            state["vb"] = momentum * state["vb"] - lr * gb / len(chunk)
            state["b"] += state["vb"]
        state["epoch"] += 1
        rng = random.Random(state["epoch"])
        val_loss, val_acc = evaluate(w, state["b"], valid)
        if not math.isfinite(val_loss):
            val_loss = 1e9
        tunedeck.report({"val_loss": val_loss, "val_accuracy": val_acc, "epoch": state["epoch"]})


if __name__ == "__main__":
    main()
