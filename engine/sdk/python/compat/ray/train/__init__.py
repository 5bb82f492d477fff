"""Ray Train's names a Tune script uses (Ray 2.7+): report, get_checkpoint, get_context,
Checkpoint and the configs. Distributed trainers (TorchTrainer, ...) are not here: a trial with
several processes is a gang trial (`resources_per_trial.workers`, engine/config/SCHEMA.md)."""
from tunedeck import Checkpoint  # noqa: F401
from ray.air.config import (  # noqa: F401
    CheckpointConfig,
    FailureConfig,
    RunConfig,
    ScalingConfig,
    SyncConfig,
)
from ray.tune._results import Result  # noqa: F401
from ray.tune._session import get_checkpoint, get_context, report  # noqa: F401
