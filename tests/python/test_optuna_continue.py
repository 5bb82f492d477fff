"""Issue 32: a study exported by tunedeck.to_optuna continues in Optuna. Each parameter's
distribution is its domain in the recorded experiment file, so study.optimize() with an
objective asking for the same parameters runs on it. It failed before ("Cannot set different
distribution kind", with the study kept in an Optuna storage): `choice: [-1, 0, 1]` was exported
as IntDistribution(-1, 1) and a uniform as the range the trials happened to draw."""
import math
import os
import unittest

import python_sdk
import tunedeck


class OptunaContinues(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.project = python_sdk.Project("optuna_space")
        cls.addClassCleanup(cls.project.cleanup)
        run = cls.project.engine("run", "experiment.yaml", "--results", cls.project.results,
                                 "--quiet")
        assert run.returncode == 0, run.stdout + run.stderr
        cls.folder = os.path.join(cls.project.results, "optuna-space")

    def test_distributions_are_the_recorded_domains(self):
        import optuna

        study = tunedeck.to_optuna(self.folder)
        distributions = study.trials[0].distributions
        self.assertEqual(distributions["sign"],
                         optuna.distributions.CategoricalDistribution([-1, 0, 1]))
        self.assertEqual(distributions["dropout"],
                         optuna.distributions.FloatDistribution(0.1, 0.9))
        self.assertEqual(distributions["model/layers"],
                         optuna.distributions.IntDistribution(1, 4))
        self.assertEqual(distributions["model/lr"],
                         optuna.distributions.FloatDistribution(1e-4, 1e-1, log=True))

    def test_study_optimize_continues_the_exported_study(self):
        import optuna

        optuna.logging.set_verbosity(optuna.logging.WARNING)
        storage = "sqlite:///" + os.path.join(self.project.root, "study.db")
        study = tunedeck.to_optuna(self.folder, storage=storage)

        def objective(trial):
            sign = trial.suggest_categorical("sign", [-1, 0, 1])
            dropout = trial.suggest_float("dropout", 0.1, 0.9)
            layers = trial.suggest_int("model/layers", 1, 4)
            lr = trial.suggest_float("model/lr", 1e-4, 1e-1, log=True)
            return abs(sign) + dropout + layers / 10 + abs(math.log10(lr) + 2)

        study.optimize(objective, n_trials=5)
        states = [t.state for t in study.trials]
        self.assertEqual(len(states), 9)
        self.assertEqual(states.count(optuna.trial.TrialState.COMPLETE), 9)


if __name__ == "__main__":
    unittest.main(verbosity=2)
