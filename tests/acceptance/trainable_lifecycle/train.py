"""The class trainable of experiment.yaml, in Ray Tune's style on Tunedeck's SDK."""
import json
import os

import tunedeck


class Accumulate(tunedeck.Trainable):
    def setup(self, config):
        self.gain = self.config["gain"]  # Ray sets self.config before setup()
        self.total = 0.0
        self.count = 0

    def step(self):
        self.count += 1
        marker = os.path.join(tunedeck.get_trial_dir(), "crashed")
        if self.count == 4 and not os.path.exists(marker):
            open(marker, "w").close()
            raise RuntimeError("crash at step 4")
        self.total += self.gain
        return {"total": self.total}

    def save_checkpoint(self, checkpoint_dir):
        path = os.path.join(checkpoint_dir, "state.json")
        with open(path, "w") as f:
            json.dump({"total": self.total, "count": self.count}, f)
        return path

    def load_checkpoint(self, checkpoint_path):
        with open(checkpoint_path) as f:
            state = json.load(f)
        self.total, self.count = state["total"], state["count"]
        with open(os.path.join(tunedeck.get_trial_dir(), "loaded.txt"), "a") as f:
            f.write("%s %d\n" % (os.path.basename(checkpoint_path), self.count))


if __name__ == "__main__":
    tunedeck.run(Accumulate)
