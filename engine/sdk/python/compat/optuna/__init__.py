"""`import optuna` in a script run with `tunedeck-engine run SCRIPT.py`, and in its trials: the
real Optuna (Debian: python3-optuna), loaded from the rest of the path in place of this module,
with Study.optimize handed to the engine (tunedeck_optuna._driver). Everything else is Optuna's
own: `import optuna` returns the real package, and its submodules are the real ones.
"""
import importlib.machinery
import importlib.util
import os
import sys


def _load_real_optuna():
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    rest = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]
    spec = importlib.machinery.PathFinder.find_spec("optuna", rest)
    if spec is None or spec.loader is None:
        raise ImportError("Optuna scripts need Optuna itself (Debian: apt install python3-optuna; "
                          "it is for /usr/bin/python3, or set TUNEDECK_PYTHON)")
    module = importlib.util.module_from_spec(spec)
    sys.modules["optuna"] = module  # the import statement returns what is here at the end
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop("optuna", None)
        raise
    return module


_real = _load_real_optuna()

from tunedeck_optuna import _driver  # noqa: E402

_driver.install(_real)
