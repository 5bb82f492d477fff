"""`python3 -m nni CONFIG.yml [--results DIR] [--quiet] [--dry-run] [--accept-new-host-keys]`,
what `tunedeck-engine run CONFIG.yml` starts for an NNI v2 experiment config: the config becomes a Tunedeck experiment
(experiment_config.py), which tunedeck.run hands to the engine, and the best trial is printed."""

import argparse
import sys

from nni.experiment_config import ConfigProblems, experiment_from_nni


def main(argv):
    parser = argparse.ArgumentParser(prog="tunedeck-engine run",
                                     description="Run an NNI experiment config with Tunedeck.")
    parser.add_argument("config")
    parser.add_argument("--results")
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--accept-new-host-keys", action="store_true",
                        help="trust remote machines not yet in known_hosts, and add them there")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the Tunedeck experiment the config stands for, run nothing")
    args = parser.parse_args(argv)
    try:
        spec, cwd = experiment_from_nni(args.config)
    except ConfigProblems as problems:
        print(str(problems), file=sys.stderr)
        return 2
    if args.dry_run:
        import json

        print(json.dumps(spec, indent=2))  # JSON is YAML: `tunedeck-engine run` reads it
        return 0
    from tunedeck_analysis import launcher

    try:
        analysis = launcher.run_experiment(spec, results=args.results, cwd=cwd,
                                           progress=not args.quiet,
                                           accept_new_host_keys=args.accept_new_host_keys)
    except launcher.EngineError as error:
        print(str(error), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 3
    trials = analysis.trials()
    errored = [t for t in trials if t["status"] == "ERROR"]
    print("Experiment '%s': %d trial%s, %d errored; results in %s"
          % (analysis.name, len(trials), "" if len(trials) == 1 else "s", len(errored),
             analysis.folder))
    best = analysis.best_trial() if analysis.metric else None
    if best is not None:
        print("Best trial %s: default %s, parameters %s"
              % (best["trial_id"], best["score"], best["config"]))
    return 1 if errored else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
