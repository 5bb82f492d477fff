"""`python3 -m torch.distributed.run ARGS...` (torchrun), for bench_gang_start.

Debian's torch 1.13 under Python 3.11 fails before it starts any process: its Std.from_str finds
a Std member by iterating the IntFlag, and Python 3.11 no longer yields NONE (0) or ALL (3)
there, so the default `--redirects 0 --tee 0` becomes None ("'NoneType' object has no attribute
'get'"). Where that is so, this maps the values the way later torch releases do (Std(int(v)));
everything else is torchrun itself, run as `-m torch.distributed.run` would run it.
"""
import re
import runpy

from torch.distributed.elastic.multiprocessing import api

_original_from_str = api.Std.from_str.__func__


def _from_str(cls, vm):
    if re.match(api._VALUE_REGEX, vm):
        return cls(int(vm))
    if re.match(api._MAPPING_REGEX, vm):
        return {int(i): cls(int(v)) for i, v in (m.split(":") for m in vm.split(","))}
    return _original_from_str(cls, vm)  # raises torchrun's own error


if api.Std.from_str("0") is None:
    api.Std.from_str = classmethod(_from_str)

runpy.run_module("torch.distributed.run", run_name="__main__", alter_sys=True)
