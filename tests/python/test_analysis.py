"""tunedeck.load on a real experiment folder: results, Ray's dataframe, the best trial equal to
`tunedeck-engine best` under every scope, with and without pandas, and the way to Optuna."""
import os
import socket
import time
import unittest

import python_sdk
import tunedeck

SCOPES = ["last", "all", "avg", "last-5-avg", "last-10-avg"]


class AnalysisOfARealRun(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.project = python_sdk.Project("curves")
        cls.addClassCleanup(cls.project.cleanup)
        run = cls.project.engine("run", "experiment.yaml", "--results", cls.project.results,
                                 "--quiet")
        assert run.returncode == 0, run.stdout + run.stderr
        cls.folder = os.path.join(cls.project.results, "curves")
        cls.analysis = tunedeck.load(cls.folder)

    def test_best_equals_the_cli_for_every_scope(self):
        winners = set()
        for scope in SCOPES:
            cli_trial, cli_config = self.project.cli_best(self.folder, scope)
            best = self.analysis.best_trial(scope=scope)
            self.assertEqual(best["trial_id"], cli_trial, scope)
            self.assertEqual(self.analysis.best_config(scope=scope), cli_config, scope)
            winners.add(best["config"]["shape"])
        # The curves make each scope pick another trial, so a scope mixed up would show.
        self.assertEqual(winners, {"dip", "steady", "late", "jump", "ten"})
        self.assertEqual(self.analysis.best_config(scope="last")["shape"], "jump")
        self.assertEqual(self.analysis.get_best_config(scope="all")["shape"], "dip")

    def test_best_by_another_metric_and_mode(self):
        best = self.analysis.best_trial(metric="step_loss", mode="max", scope="avg")
        self.assertEqual(best["config"]["shape"], "dip")  # the highest mean loss
        with self.assertRaisesRegex(ValueError, "scope is one of"):
            self.analysis.best_config(scope="best")

    def test_results_are_what_export_prints(self):
        out = self.project.engine("export", self.folder, "--format", "json")
        exported = {t["trial_id"]: t["results"] for t in __import__("json").loads(out.stdout)}
        self.assertEqual(len(self.analysis.results()), 60)
        for trial in self.analysis.trials():
            rows = self.analysis.results(trial["trial_id"])
            self.assertEqual([{k: v for k, v in r.items() if k != "config"} for r in rows],
                             exported[trial["trial_id"]])
            self.assertEqual(rows[0]["config"], trial["config"])
            self.assertEqual(trial["status"], "TERMINATED")
            self.assertEqual(trial["iteration"], 12)

    def test_notes_written_with_the_cli_are_on_the_trials(self):
        for trial, text in (("t00001", "first try"),
                            ("t00001", "diverged after the warm-up\nsee t00003"),
                            ("t00002", "temporary"), ("t00002", "")):  # empty removes it
            out = self.project.engine("note", self.folder, trial, text)
            self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        notes = {t["trial_id"]: t["note"] for t in tunedeck.load(self.folder).trials()}
        self.assertEqual(notes["t00001"], "diverged after the warm-up\nsee t00003")
        self.assertIsNone(notes["t00002"])
        self.assertIsNone(notes["t00000"])
        # The same notes as the engine's export gives them.
        out = self.project.engine("export", self.folder, "--format", "json")
        exported = {t["trial_id"]: t.get("note") for t in __import__("json").loads(out.stdout)}
        self.assertEqual(exported, notes)

    def test_dataframe_has_rays_columns(self):
        frame = self.analysis.dataframe()
        self.assertEqual(len(frame), 5)  # one row per trial, its last result
        for column in ("trial_id", "training_iteration", "loss", "val/loss", "config/shape",
                       "config/model/width", "config/model/lr", "logdir"):
            self.assertIn(column, frame.columns)
        self.assertEqual(set(frame["training_iteration"]), {12})
        jump = frame[frame["config/shape"] == "jump"].iloc[0]
        self.assertEqual(jump["loss"], 0.1)
        self.assertAlmostEqual(jump["val/loss"], 0.05)
        self.assertTrue(os.path.isdir(jump["logdir"]))
        every = self.analysis.dataframe(all_results=True)
        self.assertEqual(len(every), 60)
        # Ray's dataframe(metric, mode): each trial's best result.
        best_rows = self.analysis.dataframe(metric="loss", mode="min")
        self.assertEqual(best_rows[best_rows["config/shape"] == "dip"].iloc[0]["loss"], 0.05)
        self.assertEqual(len(self.analysis.trial_dataframes["t00000"]), 12)

    def test_dataframe_has_rays_run_columns_from_the_history(self):
        # Ray's done, date, pid, hostname, node_ip, time_since_restore and experiment_id, as a
        # Ray user's code reads them, each from what the engine recorded.
        frame = self.analysis.dataframe()
        for column in ("done", "date", "pid", "hostname", "node_ip", "time_since_restore",
                       "experiment_id"):
            self.assertIn(column, frame.columns)
        self.assertEqual(list(frame["done"]), [True] * 5)  # every trial finished
        self.assertEqual(set(frame["experiment_id"]), {"curves"})
        # One node, this machine, as its agent named itself; it has no address but "local".
        self.assertEqual(set(frame["hostname"]), {socket.gethostname()})
        self.assertTrue(frame["node_ip"].isna().all())
        self.assertTrue(frame["pid"].isna().all())  # not recorded: none is made up
        every = self.analysis.dataframe(all_results=True)
        # done only on each trial's last result, as Ray marks the result that ended it.
        self.assertEqual(sorted(every[every["done"]]["training_iteration"]), [12] * 5)
        self.assertEqual(int(every["done"].sum()), 5)
        for _, row in every.iterrows():
            self.assertEqual(row["date"], time.strftime("%Y-%m-%d_%H-%M-%S",
                                                        time.localtime(row["timestamp"])))
            # No restore in this run: the time since it is all of the trial's time.
            self.assertAlmostEqual(row["time_since_restore"], row["time_total_s"], places=6)
        self.assertGreater(every["time_since_restore"].min(), 0)

    def test_each_trials_system_health_is_there(self):
        usage = self.analysis.system_usage()
        self.assertEqual({r["trial_id"] for r in usage},
                         {t["trial_id"] for t in self.analysis.trials()})
        for row in usage:
            self.assertGreater(row["rss_mb"], 0)
            self.assertEqual(row["node"], "local")
            self.assertIsNone(row["gpu_memory_mb"])  # no GPUs here
        for trial in self.analysis.trials():  # a running Python holds megabytes
            rows = self.analysis.system_usage(trial["trial_id"])
            self.assertGreater(max(r["rss_mb"] for r in rows), 8, rows)
        times = [r["timestamp"] for r in self.analysis.system_usage("t00001")]
        self.assertEqual(times, sorted(times))
        frame = self.analysis.system_usage(as_dataframe=True)
        self.assertEqual(len(frame), len(usage))
        self.assertIn("cpu_percent", frame.columns)

    def test_without_pandas_everything_but_dataframes_works(self):
        out = self.project.python(
            "import sys; sys.modules['pandas'] = None\n"  # as if pandas were not installed
            "import tunedeck\n"
            "a = tunedeck.load(%r)\n"
            "print(len(a.results()), a.best_config(scope='avg')['shape'])\n"
            "a.dataframe()\n" % self.folder)
        self.assertEqual(out.stdout.strip(), "60 steady")
        self.assertIn("ImportError: dataframe() needs pandas (Debian: apt install "
                      "python3-pandas", out.stderr)

    def test_a_trial_importing_tunedeck_loads_nothing_more(self):
        out = self.project.python("import sys, tunedeck; print(sorted(m for m in sys.modules "
                                  "if m.startswith(('tunedeck_', 'sqlite3', 'pandas'))))")
        self.assertEqual(out.stdout.strip(), "[]", out.stderr)

    def test_to_optuna_and_back_as_points_to_evaluate(self):
        study = tunedeck.to_optuna(self.folder, scope="last-5-avg")
        self.assertEqual(len(study.trials), 5)
        self.assertEqual(study.direction.name, "MINIMIZE")
        self.assertEqual(study.best_trial.user_attrs["trial_id"],
                         self.project.cli_best(self.folder, "last-5-avg")[0])
        self.assertEqual(study.best_value, 0.3)
        self.assertEqual(study.best_trial.intermediate_values[12], 0.3)
        points, values = tunedeck.points_to_evaluate(study, top=2, with_values=True)
        self.assertEqual(points[0], self.analysis.best_config(scope="last-5-avg"))
        self.assertEqual(values, [0.3, 0.4])
        # The points warm-start a searcher: a new experiment runs them first.
        warm = tunedeck.run({
            "name": "warm-start", "trainable": {"command": "python3 train.py"},
            "search_space": {"shape": {"choice": ["dip", "steady", "late", "jump", "ten"]},
                             "model": {"width": 3, "lr": 0.5}},
            "search": {"algorithm": "tpe", "points_to_evaluate": points},
            "num_samples": 2, "metric": "loss", "mode": "min", "seed": 1,
        }, results=self.project.results, cwd=self.project.folder, progress=False,
            env={"PATH": python_sdk.user_env()["PATH"]})  # the system's python3 for trials
        self.assertEqual([t["config"] for t in warm.trials()], points)
        # With their values (Ray's evaluated_rewards), the searcher learns from the points and
        # runs none of them again: its two trials are new configs.
        told = tunedeck.run({
            "name": "warm-start-told", "trainable": {"command": "python3 train.py"},
            "search_space": {"shape": {"choice": ["dip", "steady", "late", "jump", "ten"]},
                             "model": {"width": 3, "lr": 0.5}},
            "search": {"algorithm": "tpe", "points_to_evaluate": points,
                       "evaluated_rewards": values},
            "num_samples": 2, "metric": "loss", "mode": "min", "seed": 1,
        }, results=self.project.results, cwd=self.project.folder, progress=False,
            env={"PATH": python_sdk.user_env()["PATH"]})
        self.assertEqual(len(told.trials()), 2)
        for trial in told.trials():
            self.assertNotIn(trial["config"], points)


if __name__ == "__main__":
    unittest.main(verbosity=2)
