#!/usr/bin/env python3
"""Optuna's side of the search benchmark.

Runs Optuna's samplers and pruners on the problems of bench_search, evaluated by the same C++
functions through one long-lived bench_search_objective subprocess (JSON lines), with the sizes
bench_search prints (--sizes), and writes the figures in the JSON shape bench_search's table
reads (--out). Needs a Python with optuna (Debian: python3-optuna, python3-cmaes).

  optuna_side.py --server BIN/bench_search_objective --sizes SIZES.json --out optuna.json
                 [--sections quality,stopping,overhead] [--digits CSV]
"""

import argparse
import json
import math
import statistics
import subprocess
import sys
import time

import numpy as np
import optuna
from optuna.distributions import FloatDistribution, IntDistribution

# One size is skipped when the previous, grown quadratically, predicts more than this per ask;
# timed asks of one size stop once they have taken this long (bench_search uses the same).
SKIP_ABOVE_SECONDS = 300.0
SIZE_BUDGET_SECONDS = 60.0
HISTORY_SEED = 99


def log(message):
    print(message, file=sys.stderr, flush=True)


class ObjectiveServer:
    """bench_search_objective as a function: one request line out, one answer line back."""

    def __init__(self, path, digits=None):
        command = [path] + (["--digits", digits] if digits else [])
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def ask(self, request):
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("bench_search_objective exited")
        answer = json.loads(line)
        if "error" in answer:
            raise RuntimeError(answer["error"])
        return answer

    def problems(self):
        return self.ask({"op": "describe"})["problems"]

    def value(self, problem, params, epochs=0):
        answer = self.ask({"problem": problem, "params": params, "epochs": epochs})
        return answer["value"], answer.get("curve", [])

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def distributions_of(problem):
    out = {}
    for p in problem["parameters"]:
        if p["type"] == "int":
            out[p["name"]] = IntDistribution(int(p["low"]), int(p["high"]), log=p["log"])
        else:
            out[p["name"]] = FloatDistribution(p["low"], p["high"], log=p["log"])
    return out


def quality_samplers():
    return [
        ("optuna tpe", lambda seed: optuna.samplers.TPESampler(seed=seed)),
        ("optuna cmaes", lambda seed: optuna.samplers.CmaEsSampler(seed=seed)),
        ("optuna random", lambda seed: optuna.samplers.RandomSampler(seed=seed)),
    ]


def run_quality(server, problems, sizes):
    out = {}
    checkpoints = sizes["quality_at"]
    evaluations = checkpoints[-1]
    for problem in problems:
        distributions = distributions_of(problem)
        rows = []
        for label, make_sampler in quality_samplers():
            best_at = {str(n): [] for n in checkpoints}
            tuner_seconds = 0.0
            note = None
            seeds = sizes["quality_seeds"]
            started = time.perf_counter()
            for seed in range(seeds):
                study = optuna.create_study(direction="minimize", sampler=make_sampler(seed))
                best = math.inf
                for i in range(evaluations):
                    t0 = time.perf_counter()
                    trial = study.ask(distributions)
                    tuner_seconds += time.perf_counter() - t0
                    value, _ = server.value(problem["name"], trial.params)
                    t0 = time.perf_counter()
                    if value is None:
                        study.tell(trial, state=optuna.trial.TrialState.FAIL)
                    else:
                        study.tell(trial, value)
                        best = min(best, value)
                    tuner_seconds += time.perf_counter() - t0
                    if i + 1 in checkpoints:
                        best_at[str(i + 1)].append(best)
                spent = time.perf_counter() - started
                if seed + 1 < seeds and spent > sizes["quality_row_budget_s"]:
                    note = (f"{seed + 1} of {seeds} seeds: the row's time budget "
                            f"({sizes['quality_row_budget_s']:g} s) ran out")
                    break
            seconds = time.perf_counter() - started
            row = {"label": label, "best_at": best_at, "seconds": seconds,
                   "tuner_seconds": tuner_seconds}
            if note:
                row["note"] = note
            rows.append(row)
            log(f"quality {problem['name']} {label}: {seconds:.1f} s")
        out[problem["name"]] = rows
    return out


class Curve:
    """A trial's validation curve, fetched in growing prefixes (training restarts from scratch
    each time, so a trial pruned at epoch 1 costs one epoch of evaluation, not max)."""

    def __init__(self, server, params, max_epochs):
        self.server, self.params, self.max_epochs = server, params, max_epochs
        self.errors = []

    def accuracy(self, epoch):
        if epoch > len(self.errors):
            epochs = min(self.max_epochs, max(epoch, 3 * len(self.errors), 1))
            _, self.errors = self.server.value("digits_mlp", self.params, epochs)
        return 1.0 - self.errors[epoch - 1]


def stopping_runs(max_epochs):
    def sha():
        return optuna.pruners.SuccessiveHalvingPruner(min_resource=1, reduction_factor=3)

    def hyperband():
        return optuna.pruners.HyperbandPruner(
            min_resource=1, max_resource=max_epochs, reduction_factor=3
        )

    def random(seed):
        return optuna.samplers.RandomSampler(seed=seed)

    def tpe(seed):
        return optuna.samplers.TPESampler(seed=seed)

    return [
        ("optuna random (no pruner)", random, optuna.pruners.NopPruner),
        ("optuna random+successive halving", random, sha),
        ("optuna random+hyperband", random, hyperband),
        ("optuna tpe+hyperband", tpe, hyperband),
    ]


def run_stopping(server, problems, sizes):
    problem = next(p for p in problems if p["name"] == "digits_mlp")
    distributions = distributions_of(problem)
    max_epochs = sizes["stopping_max_epochs"]
    budget = sizes["stopping_fifo_trials"] * max_epochs
    rows = []
    for label, make_sampler, make_pruner in stopping_runs(max_epochs):
        runs = []
        note = None
        started = time.perf_counter()
        for seed in range(sizes["stopping_seeds"]):
            study = optuna.create_study(
                direction="maximize", sampler=make_sampler(seed), pruner=make_pruner()
            )
            spent, best, trials, trajectory = 0, -1.0, 0, []
            while spent < budget:
                trial = study.ask(distributions)
                trials += 1
                curve = Curve(server, trial.params, max_epochs)
                state = optuna.trial.TrialState.COMPLETE
                accuracy = None
                for epoch in range(1, max_epochs + 1):
                    if spent >= budget:
                        state = optuna.trial.TrialState.FAIL  # cut by the budget
                        break
                    accuracy = curve.accuracy(epoch)
                    spent += 1
                    if accuracy > best:
                        best = accuracy
                        trajectory.append([spent, accuracy])
                    trial.report(accuracy, epoch)
                    if trial.should_prune():
                        state = optuna.trial.TrialState.PRUNED
                        break
                if state == optuna.trial.TrialState.COMPLETE:
                    study.tell(trial, accuracy)
                else:
                    study.tell(trial, state=state)
            runs.append(
                {"seed": seed, "trajectory": trajectory, "epochs": spent, "trials": trials}
            )
            seeds = sizes["stopping_seeds"]
            if seed + 1 < seeds and time.perf_counter() - started > sizes["stopping_row_budget_s"]:
                note = (f"{seed + 1} of {seeds} seeds: the row's time budget "
                        f"({sizes['stopping_row_budget_s']:g} s) ran out")
                break
        seconds = time.perf_counter() - started
        row = {"label": label, "runs": runs, "seconds": seconds}
        if note:
            row["note"] = note
        rows.append(row)
        log(f"early stopping {label}: {seconds:.1f} s")
    return {"rows": rows}


def random_history(problem, count):
    rng = np.random.RandomState(HISTORY_SEED)
    return [
        {p["name"]: float(rng.uniform(p["low"], p["high"])) for p in problem["parameters"]}
        for _ in range(count)
    ]


def time_after(server, problem, make_sampler, history, repeats):
    distributions = distributions_of(problem)
    study = optuna.create_study(direction="minimize", sampler=make_sampler(1))
    started = time.perf_counter()
    study.add_trials(
        [
            optuna.trial.create_trial(
                params=params,
                distributions=distributions,
                value=server.value(problem["name"], params)[0],
            )
            for params in random_history(problem, history)
        ]
    )
    fill_seconds = time.perf_counter() - started
    seconds = []
    started = time.perf_counter()
    for _ in range(repeats):
        t0 = time.perf_counter()
        trial = study.ask(distributions)
        seconds.append(time.perf_counter() - t0)
        study.tell(trial, server.value(problem["name"], trial.params)[0])
        if time.perf_counter() - started > SIZE_BUDGET_SECONDS:
            break
    return {
        "median_ms": statistics.median(seconds) * 1000.0,
        "samples": len(seconds),
        "fill_s": fill_seconds,
    }


def run_overhead(server, problems, sizes):
    problem = next(p for p in problems if p["name"] == "hartmann6")
    rows = []
    for label, make_sampler in quality_samplers():
        row = {"label": label}
        previous_ms, previous_size = 0.0, 0
        for history in sizes["overhead_history"]:
            ratio = history / previous_size if previous_size else 0.0
            estimate = previous_ms / 1000.0 * ratio * ratio
            if estimate > SKIP_ABOVE_SECONDS:
                cell = {"skipped": f"skipped: ~{estimate:.0f} s per ask expected"}
            else:
                cell = time_after(server, problem, make_sampler, history,
                                  sizes["overhead_repeats"])
                previous_ms = cell["median_ms"]
            previous_size = history
            row[str(history)] = cell
            shown = f"{cell['median_ms']:.3g} ms" if "median_ms" in cell else cell["skipped"]
            log(f"overhead {label} after {history}: {shown}")
        rows.append(row)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", required=True, help="bench_search_objective")
    parser.add_argument("--sizes", required=True, help="bench_search --print-sizes output")
    parser.add_argument("--out", required=True)
    parser.add_argument("--sections", default="quality,stopping,overhead")
    parser.add_argument("--digits", default=None)
    args = parser.parse_args()

    optuna.logging.set_verbosity(optuna.logging.ERROR)
    with open(args.sizes) as f:
        sizes = json.load(f)
    sections = args.sections.split(",")
    server = ObjectiveServer(args.server, args.digits)
    problems = server.problems()
    out = {"optuna_version": optuna.__version__}
    if "quality" in sections:
        wanted = sizes.get("quality_problems") or [p["name"] for p in problems]
        out["quality"] = run_quality(server, [p for p in problems if p["name"] in wanted], sizes)
    if "stopping" in sections:
        out["early_stopping"] = run_stopping(server, problems, sizes)
    if "overhead" in sections:
        out["overhead"] = run_overhead(server, problems, sizes)
    server.close()
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
