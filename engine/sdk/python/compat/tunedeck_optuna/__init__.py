"""Optuna scripts run unchanged with `tunedeck-engine run SCRIPT.py` (engine/sdk/python/README.md,
"Optuna scripts"): the script's `import optuna` is the real Optuna with Study.optimize handed to
the engine (_driver), and each call of the objective runs as a Tunedeck trial (_trial), whose
trial.suggest_* the engine's searcher answers define-by-run."""
