"""Branin-Hoo, the classic two-parameter test function of hyperparameter search, as a trainable:
one report of `loss` (global minimum 0.397887 at three points) and of `cost`, a second objective
that prefers small x (for the multi-objective example). Standard library only.

Runs under Tunedeck (tunedeck-engine run tpe.yaml) or alone (python3 train.py).
"""
import math

import tunedeck


def branin(x, y):
    a, b, c = 1.0, 5.1 / (4 * math.pi ** 2), 5 / math.pi
    r, s, t = 6.0, 10.0, 1 / (8 * math.pi)
    return a * (y - b * x ** 2 + c * x - r) ** 2 + s * (1 - t) * math.cos(x) + s


def main():
    config = tunedeck.get_config()
    x = float(config.get("x", 0.0))
    y = float(config.get("y", 0.0))
    tunedeck.report({"loss": branin(x, y), "cost": (x + 5) / 15})


if __name__ == "__main__":
    main()
