"""Ray AIR (Ray 2.0-2.6): the configs, Checkpoint and session, as ray.train has them."""
from tunedeck import Checkpoint  # noqa: F401
from ray.air import session  # noqa: F401
from ray.air.config import (  # noqa: F401
    CheckpointConfig,
    FailureConfig,
    RunConfig,
    ScalingConfig,
    SyncConfig,
)
from ray.tune._results import Result  # noqa: F401
