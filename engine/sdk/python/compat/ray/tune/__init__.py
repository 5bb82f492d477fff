"""Ray Tune's API on Tunedeck (see ray/__init__.py): Tuner, TuneConfig, tune.run, the search
space functions, reporting and checkpoints inside trainables, and the result objects."""
from tunedeck import Checkpoint, Trainable  # noqa: F401
from ray.air.config import (  # noqa: F401
    CheckpointConfig,
    FailureConfig,
    RunConfig,
    SyncConfig,
)
from ray.tune._callbacks import Callback  # noqa: F401
from ray.tune._driver import (  # noqa: F401
    PlacementGroupFactory,
    TuneConfig,
    Tuner,
    run,
    with_parameters,
    with_resources,
)
from ray.tune._results import ExperimentAnalysis, ResultGrid, TuneError  # noqa: F401
from ray.tune._session import (  # noqa: F401
    checkpoint_dir,
    get_checkpoint,
    get_context,
    get_trial_dir,
    get_trial_id,
    get_trial_name,
    is_session_enabled,
    report,
)
from ray.tune.search.sample import (  # noqa: F401
    choice,
    grid_search,
    lograndint,
    loguniform,
    qlograndint,
    qloguniform,
    qrandint,
    qrandn,
    quniform,
    randint,
    randn,
    sample_from,
    uniform,
)
from ray.tune.stopper import Stopper  # noqa: F401
from ray.tune import schedulers, search, stopper  # noqa: F401


class CLIReporter:
    """Accepted and unused: Tunedeck shows its own progress."""

    def __init__(self, *args, **kwargs):
        pass

    def add_metric_column(self, *args, **kwargs):
        pass


JupyterNotebookReporter = CLIReporter
ProgressReporter = CLIReporter
