"""A Ray Tune 1.x-style script: a class Trainable run with tune.run. setup() reads self.config
(Ray sets it before setup), save_checkpoint returns the path of the file it wrote (Ray 1.x), and
load_checkpoint opens that path as a file. Each trial crashes once at iteration 5 and is retried
from its latest checkpoint (max_failures=1)."""
import json
import os

from ray import tune


class Counter(tune.Trainable):
    def setup(self, config):
        self.rate = self.config["rate"]  # Ray sets self.config before setup()
        self.value = 0.0
        self.steps = 0

    def step(self):
        self.steps += 1
        marker = os.path.join(self.logdir, "crashed_once")
        if self.steps == 5 and not os.path.exists(marker):
            open(marker, "w").close()
            raise RuntimeError("simulated crash at step 5")
        self.value += self.rate * (1.0 - self.value)
        return {"value": self.value, "steps": self.steps}

    def save_checkpoint(self, checkpoint_dir):
        path = os.path.join(checkpoint_dir, "counter.json")
        with open(path, "w") as f:
            json.dump({"value": self.value, "steps": self.steps}, f)
        return path

    def load_checkpoint(self, checkpoint_path):
        with open(checkpoint_path) as f:  # the file save_checkpoint returned
            state = json.load(f)
        self.value, self.steps = state["value"], state["steps"]
        with open(os.path.join(self.logdir, "restored_from.txt"), "a") as f:
            f.write("%s %d\n" % (os.path.basename(checkpoint_path), self.steps))


if __name__ == "__main__":
    analysis = tune.run(
        Counter,
        name="legacy_counter",
        config={"rate": tune.grid_search([0.1, 0.3])},
        stop={"training_iteration": 8},
        checkpoint_freq=2,
        checkpoint_at_end=True,
        max_failures=1,
        metric="value",
        mode="max",
        verbose=1,
    )
    print("best_config:", json.dumps(analysis.best_config, sort_keys=True))
    print("best value: %.6f" % analysis.best_result["value"])
