"""Ray Tune's module of the same name."""
from ray.tune._callbacks import Callback  # noqa: F401
