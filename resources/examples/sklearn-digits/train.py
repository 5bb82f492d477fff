"""A real model: scikit-learn's MLPClassifier on the handwritten digits data set that ships
inside scikit-learn (load_digits reads it from the package; nothing is downloaded). One
training iteration is one epoch of partial_fit; checkpoints are the pickled model.

Needs Debian's python3-sklearn, which installs for the system's own /usr/bin/python3. When this
script is started by another python3 (a pyenv or venv first on PATH), it re-runs itself there.
"""
import os
import pickle
import sys

try:
    import numpy as np
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split
    from sklearn.neural_network import MLPClassifier
    from sklearn.preprocessing import StandardScaler
except ImportError:
    system_python = "/usr/bin/python3"
    if os.path.realpath(sys.executable) != os.path.realpath(system_python) and os.path.exists(
            system_python):
        os.execv(system_python, [system_python] + sys.argv)
    raise

import tunedeck


def main():
    config = tunedeck.get_config()
    hidden = int(config.get("hidden", 64))
    layers = int(config.get("layers", 1))
    digits = load_digits()
    x_train, x_valid, y_train, y_valid = train_test_split(
        digits.data, digits.target, test_size=0.3, random_state=0, stratify=digits.target)
    scaler = StandardScaler().fit(x_train)
    x_train, x_valid = scaler.transform(x_train), scaler.transform(x_valid)
    classes = np.unique(digits.target)

    restore = tunedeck.get_checkpoint()
    if restore:
        with open(os.path.join(restore, "model.pkl"), "rb") as f:
            model, rng_state = pickle.load(f)
        rng = np.random.RandomState(0)
        rng.set_state(rng_state)
    else:
        model = MLPClassifier(hidden_layer_sizes=(hidden,) * layers,
                              alpha=float(config.get("alpha", 1e-4)),
                              learning_rate_init=float(config.get("learning_rate_init", 1e-3)),
                              batch_size=int(config.get("batch_size", 32)),
                              random_state=int(config.get("seed", 0)))
        rng = np.random.RandomState(int(config.get("seed", 0)))

    def save(folder):
        with open(os.path.join(folder, "model.pkl"), "wb") as f:
            pickle.dump((model, rng.get_state()), f)

    tunedeck.on_save(save)
    while True:
        order = rng.permutation(len(x_train))
        model.partial_fit(x_train[order], y_train[order], classes=classes)
        accuracy = float(model.score(x_valid, y_valid))
        tunedeck.report({"val_accuracy": accuracy, "train_loss": float(model.loss_)})


if __name__ == "__main__":
    main()
