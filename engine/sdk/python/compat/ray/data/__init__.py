"""Ray Datasets are not part of Tunedeck's Ray Tune compatibility: importing them fails at once."""
raise ImportError(
    "ray.data (Ray Datasets) is not supported by Tunedeck's Ray Tune compatibility: load the "
    "data inside the trainable, or pass it with tune.with_parameters(trainable, data=...)")
