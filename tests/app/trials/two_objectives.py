"""Two objectives that trade off, reported once per trial as an Optuna objective returns them:
loss = x + penalty and latency_ms = 10 * (1 - x) + 10 * penalty. A lower loss costs latency, so
the trials without a penalty form the Pareto front; each with a penalty is beaten on both by the
trial of its x without one."""
import tunedeck

config = tunedeck.get_config()
x, penalty = config["x"], config["penalty"]
tunedeck.report({"loss": x + penalty, "latency_ms": 10 * (1 - x) + 10 * penalty})
