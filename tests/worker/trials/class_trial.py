"""A class-style trial: a counter that adds `increment` each step until `limit`."""
import os

import tunedeck


class Counter(tunedeck.Trainable):
    def setup(self, config):
        self.total = 0
        self.increment = config.get("increment", 1)
        self.limit = config.get("limit", 1000)

    def step(self):
        self.total += self.increment
        return {"total": self.total, "done": self.total >= self.limit}

    def save_checkpoint(self, checkpoint_dir):
        with open(os.path.join(checkpoint_dir, "total.txt"), "w") as f:
            f.write(str(self.total))

    def load_checkpoint(self, checkpoint_dir):
        with open(os.path.join(checkpoint_dir, "total.txt")) as f:
            self.total = int(f.read())

    def cleanup(self):
        print("cleanup with total %d" % self.total, flush=True)


tunedeck.run(Counter)
