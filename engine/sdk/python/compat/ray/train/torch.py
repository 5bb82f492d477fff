"""Ray Train's distributed trainers are not part of Tunedeck's Ray Tune compatibility."""
raise ImportError(
    "ray.train.torch (TorchTrainer, distributed Ray Train) is not supported by Tunedeck's Ray "
    "Tune compatibility: run the training loop as a function trainable, and for several "
    "processes per trial give it `resources_per_trial: {workers: N}` (a gang trial with "
    "torchrun's environment) in an experiment file")
