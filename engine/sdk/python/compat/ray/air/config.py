"""Ray AIR's configuration objects (RunConfig, CheckpointConfig, FailureConfig, ScalingConfig),
which ray.train and ray.tune re-export. Plain holders of Ray's arguments; the driver (_driver.py)
turns them into the experiment file."""


class _Holder:
    _defaults = {}

    def __init__(self, *args, **kwargs):
        names = list(self._defaults)
        values = dict(self._defaults)
        values.update(zip(names, args))
        unknown = set(kwargs) - set(names)
        if unknown:
            raise TypeError("%s() got unexpected arguments: %s"
                            % (type(self).__name__, ", ".join(sorted(unknown))))
        values.update(kwargs)
        for name, value in values.items():
            setattr(self, name, value)

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, ", ".join(
            "%s=%r" % (k, getattr(self, k)) for k in self._defaults
            if getattr(self, k) != self._defaults[k]))


class CheckpointConfig(_Holder):
    _defaults = {"num_to_keep": None, "checkpoint_score_attribute": None,
                 "checkpoint_score_order": "max", "checkpoint_frequency": 0,
                 "checkpoint_at_end": None, "_checkpoint_keep_all_ranks": False,
                 "_checkpoint_upload_from_workers": False}


class FailureConfig(_Holder):
    _defaults = {"max_failures": 0, "fail_fast": False}


class ScalingConfig(_Holder):
    _defaults = {"trainer_resources": None, "num_workers": None, "use_gpu": False,
                 "resources_per_worker": None, "placement_strategy": "PACK"}


class RunConfig(_Holder):
    _defaults = {"name": None, "storage_path": None, "storage_filesystem": None,
                 "callbacks": None, "stop": None, "failure_config": None, "sync_config": None,
                 "checkpoint_config": None, "progress_reporter": None, "verbose": None,
                 "log_to_file": False, "local_dir": None}


class SyncConfig(_Holder):
    _defaults = {"upload_dir": None, "syncer": None, "sync_period": 300, "sync_timeout": 1800,
                 "sync_artifacts": False, "sync_on_checkpoint": True}
