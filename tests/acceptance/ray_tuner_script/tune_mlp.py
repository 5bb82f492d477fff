"""A Ray Tune 2.x script as its user writes it: a function trainable that reports with
train.report and checkpoints with Checkpoint.from_dict, ASHA early stopping, OptunaSearch, and
the best result read from the ResultGrid. Run as `python tune_mlp.py` under Ray."""
import argparse
import json
import math

from ray import train, tune
from ray.train import Checkpoint
from ray.tune.schedulers import ASHAScheduler
from ray.tune.search import ConcurrencyLimiter
from ray.tune.search.optuna import OptunaSearch


def fake_training(config):
    """A stand-in for an MLP's validation loss: best near lr=0.05, wider is better, and it
    falls with each epoch."""
    start = 0
    checkpoint = train.get_checkpoint()
    if checkpoint:
        start = checkpoint.to_dict()["epoch"]
    for epoch in range(start, config["epochs"]):
        loss = (abs(math.log10(config["lr"]) - math.log10(0.05)) + 8.0 / config["hidden"]
                + 1.0 / (epoch + 1) + 0.001 * config["blocks"])
        train.report({"val_loss": loss, "epoch": epoch},
                     checkpoint=Checkpoint.from_dict({"epoch": epoch + 1}))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=8)
    args = parser.parse_args()

    search = ConcurrencyLimiter(OptunaSearch(seed=7), max_concurrent=4)
    scheduler = ASHAScheduler(max_t=6, grace_period=2, reduction_factor=2)
    tuner = tune.Tuner(
        fake_training,
        param_space={
            "lr": tune.loguniform(1e-4, 1e-1),
            "hidden": tune.choice([16, 32, 64, 128]),
            "epochs": 6,
            "blocks": tune.sample_from(lambda spec: spec.config.hidden // 16),
        },
        tune_config=tune.TuneConfig(metric="val_loss", mode="min", search_alg=search,
                                    scheduler=scheduler, num_samples=args.samples),
        run_config=train.RunConfig(name="mlp_asha", stop={"done": True}),
    )
    results = tuner.fit()

    best = results.get_best_result()
    print("Best config:", json.dumps(best.config, sort_keys=True))
    print("Best val_loss: %.6f" % best.metrics["val_loss"])
    print("Best checkpoint epoch:", best.checkpoint.to_dict()["epoch"])
    frame = results.get_dataframe()
    print("Trials in dataframe:", len(frame))
    print("Errors:", results.num_errors)


if __name__ == "__main__":
    main()
