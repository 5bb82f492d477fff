"""A class trainable as a Ray Tune user writes one. It crashes once, at iteration 5, to show
the retry resumes from the checkpoint of iteration 4."""
import json
import os

import tunedeck


class MyTrainable(tunedeck.Trainable):
    def setup(self, config):
        self.lr = config["lr"]
        self.score = 0.0
        self.iteration = 0

    def step(self):
        self.iteration += 1
        with open(os.path.join(tunedeck.get_trial_dir(), "steps.txt"), "a") as f:
            f.write("%d\n" % self.iteration)
        crashed_before = os.path.join(tunedeck.get_trial_dir(), "crashed_once")
        if self.iteration == 5 and not os.path.exists(crashed_before):
            open(crashed_before, "w").close()
            raise RuntimeError("simulated crash at iteration 5")
        self.score += self.lr * (1.0 - self.score)
        return {"score": self.score}

    def save_checkpoint(self, checkpoint_dir):
        with open(os.path.join(checkpoint_dir, "state.json"), "w") as f:
            json.dump({"score": self.score, "iteration": self.iteration}, f)

    def load_checkpoint(self, checkpoint_dir):
        with open(os.path.join(checkpoint_dir, "state.json")) as f:
            state = json.load(f)
        self.score = state["score"]
        self.iteration = state["iteration"]
        with open(os.path.join(tunedeck.get_trial_dir(), "restored.txt"), "a") as f:
            f.write("%d\n" % self.iteration)


if __name__ == "__main__":
    tunedeck.run(MyTrainable)
