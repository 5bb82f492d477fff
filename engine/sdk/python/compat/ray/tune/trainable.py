"""Ray Tune's module of the same name."""
from tunedeck import Trainable  # noqa: F401
