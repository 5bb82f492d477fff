"""Ray AIR's session API (Ray 2.0-2.6): session.report, get_checkpoint, get_trial_id, ..."""
from ray.tune._session import (  # noqa: F401
    get_checkpoint,
    get_experiment_name,
    get_local_rank,
    get_trial_dir,
    get_trial_id,
    get_trial_name,
    get_world_rank,
    get_world_size,
    report,
)
