"""The experiment side of Tunedeck's Python package: read a finished (or running) experiment
folder, launch the engine from a notebook or a script, and hand results to Optuna.

Users reach it through ``tunedeck`` (``tunedeck.load``, ``tunedeck.run``, ``tunedeck.to_optuna``,
``tunedeck.points_to_evaluate``); ``tunedeck.py`` imports this package only when one of them is
called, so a trial's ``import tunedeck`` stays as light as before. Standard library only at
import time; pandas and optuna are imported by the calls that need them.
"""

from .analysis import ExperimentAnalysis, load
from .launcher import run_experiment
from .optuna_bridge import points_to_evaluate, to_optuna

__all__ = ["ExperimentAnalysis", "load", "points_to_evaluate", "run_experiment", "to_optuna"]
