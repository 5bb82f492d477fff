"""tunedeck.run(spec) from a notebook or a script: runs the installed tunedeck-engine on an
experiment (a dict, or the path of an experiment file), shows its progress while it runs, and
returns the experiment's ExperimentAnalysis.

The engine is the one named by `engine=`, else $TUNEDECK_ENGINE, else the one installed beside
this package (<prefix>/bin/tunedeck-engine for <prefix>/share/tunedeck/sdk/python; the build tree
has the same layout), else tunedeck-engine on PATH. A dict is written as JSON (JSON is YAML, the
engine reads it as any experiment file) to a temporary file, with relative paths resolved
against `cwd` (default: the current folder), as if the file were there. Not thread-safe.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time

from . import analysis, spec_fields
from .progress import Progress

_HERE = os.path.dirname(os.path.abspath(__file__))
# Exit codes of tunedeck-engine (its --help).
_BAD_INPUT, _INTERRUPTED = 2, 3


def find_engine(engine=None):
    candidates = [engine, os.environ.get("TUNEDECK_ENGINE"),
                  os.path.normpath(os.path.join(_HERE, "..", "..", "..", "..", "..", "bin",
                                                "tunedeck-engine")),
                  shutil.which("tunedeck-engine")]
    for candidate in candidates:
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    raise FileNotFoundError(
        "tunedeck-engine not found: install it (Debian: apt install ./tunedeck-engine_*.deb), "
        "put it on PATH, set TUNEDECK_ENGINE, or pass engine=...")


class EngineError(RuntimeError):
    """The engine refused the experiment (exit code 2) or could not run it."""


def _spec_file(spec, workdir, cwd):
    """(file to run, its text, the --as path or None)."""
    if isinstance(spec, dict):
        name = str(spec.get("name") or "experiment")
        if isinstance(spec.get("cluster"), dict):
            # A cluster given as a dict is written beside the experiment (JSON is YAML).
            cluster = os.path.join(workdir, "cluster.yaml")
            with open(cluster, "w", encoding="utf-8") as f:
                f.write(json.dumps(spec["cluster"], indent=2) + "\n")
            spec = dict(spec, cluster=cluster)
        path = os.path.join(workdir, "experiment.yaml")
        text = json.dumps(spec, indent=2)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text + "\n")
        return path, text, os.path.join(cwd, re.sub(r"[^\w.-]", "_", name) + ".yaml")
    path = os.path.abspath(os.path.join(cwd, os.path.expanduser(os.fspath(spec))))
    with open(path, encoding="utf-8") as f:
        return path, f.read(), None


def _on_submitted_cluster(spec):
    """The experiment on the cluster `tunedeck-engine submit CLUSTER SCRIPT.py` names
    ($TUNEDECK_CLUSTER), as submit puts an experiment file there. An experiment that names
    another cluster (NNI's `trainingService: remote`) is refused rather than moved."""
    cluster = os.environ.get("TUNEDECK_CLUSTER")
    if not cluster:
        return spec
    if not isinstance(spec, dict):
        raise EngineError("%s: submit runs a script's experiments on %s, and this one is a file; "
                          "run it with `tunedeck-engine submit %s %s`" % (spec, cluster, cluster,
                                                                          spec))
    given = spec.get("cluster")
    if given is None or (isinstance(given, str) and
                         os.path.realpath(given) == os.path.realpath(cluster)):
        return dict(spec, cluster=cluster)
    raise EngineError("the experiment names a cluster of its own (%s), but submit runs it on %s; "
                      "leave one of them out" % (given if isinstance(given, str) else
                                                 "the config's machines", cluster))


def _total_trials(engine, file, as_path, env, cwd):
    """How many trials the experiment will run (None when open-ended); raises EngineError with
    the engine's message (file:line:column) when the experiment is wrong."""
    args = [engine, "validate", "--file-only", file] + (["--as", as_path] if as_path else [])
    proc = subprocess.run(args, env=env, cwd=cwd, text=True, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT)
    if proc.returncode != 0:
        raise EngineError(proc.stdout.strip())
    match = re.search(r"(\d+) trials", proc.stdout)
    return int(match.group(1)) if match else None


def _read_events(path, offset):
    try:
        with open(path, "rb") as f:
            f.seek(offset)
            data = f.read()
    except OSError:
        return [], offset
    end = data.rfind(b"\n") + 1  # a line still being written waits for the next look
    events = []
    for line in data[:end].splitlines():
        try:
            events.append(json.loads(line))
        except ValueError:
            pass
    return events, offset + end


def _follow(args, cwd, env, workdir, events_path, shown, on_event, poll_s):
    """Runs the engine command `args`, showing its events as they arrive; its analysis."""
    log_path = os.path.join(workdir, "engine.log")
    with open(log_path, "w+") as log:
        proc = subprocess.Popen(args, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
        folder, offset, interrupted = None, 0, False
        while True:
            try:
                finished = proc.poll() is not None
                events, offset = _read_events(events_path, offset)
                for event in events:
                    if event.get("type") == "experiment_started":
                        folder = event.get("folder")
                    shown.take(event)
                    if on_event is not None:
                        on_event(event)
                shown.show()
                if finished:
                    break
                time.sleep(poll_s)
            except KeyboardInterrupt:
                if interrupted:
                    proc.kill()
                interrupted = True
                proc.send_signal(signal.SIGINT)
        shown.close()
        log.seek(0)
        output = log.read()
    code = proc.returncode
    if folder is None or code == _BAD_INPUT:
        raise EngineError("tunedeck-engine %s exited with %s:\n%s"
                          % (args[1], code, output.strip()))
    if interrupted or code == _INTERRUPTED:
        raise KeyboardInterrupt("the experiment was interrupted; tunedeck.load(%r) reads "
                                "what it recorded" % folder)
    return analysis.load(folder)


def resume_experiment(folder, engine=None, env=None, progress=True, poll_s=0.2,
                      on_event=None):
    """Continues an interrupted experiment (`tunedeck-engine resume FOLDER`), showing its
    progress as run_experiment does; returns its ExperimentAnalysis."""
    engine = find_engine(engine)
    folder = os.path.abspath(os.path.expanduser(os.fspath(folder)))
    before = analysis.load(folder)
    run_env = dict(os.environ)
    run_env.update({k: str(v) for k, v in (env or {}).items()})
    workdir = tempfile.mkdtemp(prefix="tunedeck-resume-")
    try:
        events_path = os.path.join(workdir, "events.jsonl")
        shown = Progress(None, before.objectives[0] if len(before.objectives) == 1 else None,
                         enabled=progress)
        return _follow([engine, "resume", folder, "--quiet", "--events", events_path],
                       os.getcwd(), run_env, workdir, events_path, shown, on_event, poll_s)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def run_experiment(spec, results=None, engine=None, cwd=None, env=None, progress=True,
                   poll_s=0.2, on_event=None, accept_new_host_keys=False):
    """Runs `spec` (a dict, or an experiment file's path) and returns its ExperimentAnalysis.

    results: the results root (default: $TUNEDECK_RESULTS, else ~/tunedeck-results);
    env: extra environment variables for the engine and its trials; progress: False for none;
    on_event: called with each event (a dict, as `run --events` writes it) as it arrives;
    accept_new_host_keys: trust cluster nodes not yet in known_hosts (`--accept-new-host-keys`).
    `spec["cluster"]` may be a cluster file's path or the file's content as a dict.
    Errored trials do not raise (the analysis shows them); an experiment the engine refuses
    raises EngineError with its message. Ctrl-C (KeyboardInterrupt) stops the trials as the
    engine's Ctrl-C does, then is raised again."""
    engine = find_engine(engine)
    cwd = os.path.abspath(cwd or os.getcwd())
    spec = _on_submitted_cluster(spec)
    accept_new_host_keys = accept_new_host_keys or \
        os.environ.get("TUNEDECK_ACCEPT_NEW_HOST_KEYS") == "1"
    run_env = dict(os.environ)
    run_env.update({k: str(v) for k, v in (env or {}).items()})
    workdir = tempfile.mkdtemp(prefix="tunedeck-run-")
    try:
        file, text, as_path = _spec_file(spec, workdir, cwd)
        total = _total_trials(engine, file, as_path, run_env, cwd)
        objectives = spec_fields.objectives(text)
        events_path = os.path.join(workdir, "events.jsonl")
        args = [engine, "run", file, "--quiet", "--events", events_path]
        if as_path:
            args += ["--as", as_path]
        if accept_new_host_keys:
            args.append("--accept-new-host-keys")
        if results is not None:
            args += ["--results", os.path.abspath(os.path.join(cwd, os.fspath(results)))]
        shown = Progress(total, objectives[0] if len(objectives) == 1 else None,
                         enabled=progress)
        return _follow(args, cwd, run_env, workdir, events_path, shown, on_event, poll_s)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
