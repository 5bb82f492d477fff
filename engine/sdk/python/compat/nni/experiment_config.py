"""An NNI v2 experiment config (config.yml) as a Tunedeck experiment (engine/config/SCHEMA.md).

What maps: experimentName, searchSpaceFile / searchSpace, trialCommand, trialCodeDirectory,
trialConcurrency, maxTrialNumber, maxExperimentDuration, trialGpuNumber, tuner (TPE, Random,
GridSearch, GPTuner) with classArgs optimize_mode and seed, assessor Medianstop, advisors
Hyperband and BOHB, and trainingService local and remote (its machineList becomes a cluster
file of SSH nodes, the first the head, with the trial code copied to each).
A key Tunedeck cannot honour is a problem naming it and what to do instead; problems are listed
all at once, `FILE:LINE: key: problem`, and nothing runs. Needs PyYAML (Debian: python3-yaml)."""

import os
import re


class ConfigProblems(Exception):
    def __init__(self, problems):
        super().__init__("\n".join(problems))
        self.problems = problems


# Keys read elsewhere or with no effect on a run (NNI's logging, its manager's own process).
_NO_EFFECT = {"debug", "logLevel", "experimentWorkingDirectory", "nniManagerIp",
              "tunerGpuIndices", "experimentType", "useAnnotation"}

_TUNERS = {"TPE": "tpe", "Random": "random", "GridSearch": "grid", "GPTuner": "bayesopt"}
_TUNER_HINTS = {
    "Anneal": "use TPE (tuner: {name: TPE}), the closest model-based search Tunedeck has",
    "Evolution": "use TPE, or Tunedeck's pbt scheduler in an experiment file for evolution of "
                 "running trials",
    "SMAC": "use GPTuner (Tunedeck's bayesopt) or TPE",
    "MetisTuner": "use GPTuner (Tunedeck's bayesopt)",
    "DNGOTuner": "use GPTuner (Tunedeck's bayesopt)",
    "BatchTuner": "list the configs as a choice, or as search.points_to_evaluate in an "
                  "experiment file",
    "PBTTuner": "write a Tunedeck experiment file with scheduler: {type: pbt}",
    "Hyperband": "write it as advisor: {name: Hyperband}",
    "BOHB": "write it as advisor: {name: BOHB}",
}


def _lines(text):
    """{top-level key: line} of the YAML text, for the problems' places."""
    lines = {}
    for number, line in enumerate(text.splitlines(), start=1):
        match = re.match(r"([A-Za-z_][\w]*)\s*:", line)
        if match and match.group(1) not in lines:
            lines[match.group(1)] = number
    return lines


def _seconds(value):
    """NNI's durations: a number of seconds, or "30s", "10m", "2h", "1d"."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    match = re.fullmatch(r"\s*([0-9.]+)\s*([smhd]?)\s*", str(value))
    if not match:
        raise ValueError("expected a duration such as 30m, 2h or 1d, not %r" % (value,))
    return float(match.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}[
        match.group(2)]


def _mode(class_args):
    optimize = (class_args or {}).get("optimize_mode", "maximize")
    if optimize not in ("maximize", "minimize"):
        raise ValueError("optimize_mode must be maximize or minimize, not %r" % (optimize,))
    return "max" if optimize == "maximize" else "min"


_MACHINE_KEYS = ("host", "port", "user", "sshKeyFile", "password", "passphrase", "useActiveGpu",
                 "maxTrialNumberPerGpu", "gpuIndices", "pythonPath")


def _remote_cluster(service, name, folder, problem):
    """NNI's remote training service as a Tunedeck cluster file (a dict): every machine is an SSH
    node, the first the head; the trial code directory is copied to each (storage: copy), as NNI
    uploads it. None (with problems) when it cannot be one."""
    for key in sorted(set(service) - {"platform", "machineList", "reuseMode"}):
        problem("trainingService.%s" % key, "not read for platform remote; remove it")
    machines = service.get("machineList")
    if not isinstance(machines, list) or not machines:
        problem("trainingService.machineList", "required for platform remote: a list of "
                "machines, each {host, port, user, sshKeyFile}")
        return None
    hosts, users, keys = [], set(), set()
    for index, machine in enumerate(machines):
        where = "trainingService.machineList[%d]" % index
        if not isinstance(machine, dict) or not machine.get("host"):
            problem(where + ".host", "required: the machine's address")
            continue
        for key in sorted(set(machine) - set(_MACHINE_KEYS)):
            problem("%s.%s" % (where, key), "unknown machine key (NNI's are %s)"
                    % ", ".join(_MACHINE_KEYS))
        if "password" in machine:
            problem(where + ".password", "Tunedeck logs in with keys, never a password: give "
                    "sshKeyFile, or ssh-add the key to ssh-agent and leave both out")
        if machine.get("passphrase"):
            problem(where + ".passphrase", "a key with a passphrase is used through ssh-agent: "
                    "ssh-add it and leave sshKeyFile and passphrase out")
        if machine.get("pythonPath"):
            problem(where + ".pythonPath", "not read: write the interpreter's full path in "
                    "trialCommand, or set PATH in the machine's login profile")
        if machine.get("gpuIndices") is not None:
            problem(where + ".gpuIndices", "not read: each trial is given free GPUs of its "
                    "machine (write a cluster file with resources: {gpu: N} to offer fewer)")
        users.add(machine.get("user"))
        keys.add(machine.get("sshKeyFile"))
        node = {"host": str(machine["host"])}
        if machine.get("port") is not None:
            node["port"] = machine["port"]
        hosts.append(node)
    if None in users or len(users) != 1:
        problem("trainingService.machineList", "give every machine the same user: Tunedeck "
                "logs in to all nodes as one user (found %s)"
                % ", ".join(sorted(str(u) for u in users)))
        return None
    if len(keys) > 1:
        problem("trainingService.machineList", "give every machine the same sshKeyFile (or "
                "none, for ssh-agent): Tunedeck logs in to all nodes with one key")
        return None
    if not hosts:
        return None
    auth = {"ssh_user": str(users.pop())}
    key = keys.pop()
    if key:
        auth["ssh_private_key"] = os.path.join(folder, os.path.expanduser(str(key)))
    return {"cluster_name": name, "provider": {"type": "ssh", "head_ip": hosts[0],
                                               "worker_ips": hosts[1:]},
            "auth": auth, "storage": "copy"}


def experiment_from_nni(path):
    """(Tunedeck experiment as a dict, the folder relative paths start from)."""
    import yaml

    path = os.path.abspath(path)
    folder = os.path.dirname(path)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    lines = _lines(text)
    problems = []

    def problem(key, message):
        line = lines.get(key.split(".")[0], 1)
        problems.append((line, "%s:%s: %s: %s" % (path, line, key, message)))

    try:
        config = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise ConfigProblems(["%s: invalid YAML: %s" % (path, error)]) from None
    if not isinstance(config, dict):
        raise ConfigProblems(["%s: an NNI experiment config is a mapping of keys" % path])
    # NNI v2 also accepts snake_case keys.
    config = {re.sub(r"_([a-z])", lambda m: m.group(1).upper(), k): v
              for k, v in config.items()}

    spec = {"name": re.sub(r"[^A-Za-z0-9_.-]", "_",
                           str(config.pop("experimentName", None) or
                               os.path.splitext(os.path.basename(path))[0])).lstrip(".-")
            or "nni"}
    code_dir = os.path.join(folder, str(config.pop("trialCodeDirectory", ".")))
    command = config.pop("trialCommand", None)
    if not command:
        problem("trialCommand", "required: the command each trial runs")
    sdk_compat = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    python_path = [sdk_compat] + [p for p in os.environ.get("PYTHONPATH", "").split(":") if p]
    spec["trainable"] = {"command": ["sh", "-c", str(command)], "working_dir": code_dir,
                         "env": {"PYTHONPATH": ":".join(python_path)}}

    space_file = config.pop("searchSpaceFile", None)
    space = config.pop("searchSpace", None)
    if space_file is not None and space is not None:
        problem("searchSpace", "give searchSpaceFile or searchSpace, not both")
    if space_file is not None:
        spec["search_space"] = os.path.join(folder, str(space_file))
    elif space is not None:
        spec["search_space"] = space
    else:
        problem("searchSpaceFile", "required (or searchSpace): the parameters to search")

    if "trialConcurrency" in config:
        spec["max_concurrent_trials"] = config.pop("trialConcurrency")
    max_trials = config.pop("maxTrialNumber", None)
    duration = config.pop("maxExperimentDuration", None)
    if duration is not None:
        try:
            spec["time_budget_s"] = _seconds(duration)
        except ValueError as error:
            problem("maxExperimentDuration", str(error))
    if max_trials is not None:
        spec["num_samples"] = max_trials
    elif duration is not None:
        spec["num_samples"] = -1  # until the duration is spent, as NNI
    else:
        problem("maxTrialNumber", "give maxTrialNumber or maxExperimentDuration: NNI runs "
                "until it is stopped, a Tunedeck run ends on its own")

    mode = "max"
    tuner = config.pop("tuner", None)
    advisor = config.pop("advisor", None)
    if tuner is not None and advisor is not None:
        problem("advisor", "give a tuner or an advisor, not both")
    if tuner is not None:
        name = (tuner or {}).get("name")
        class_args = dict((tuner or {}).get("classArgs") or {})
        try:
            mode = _mode(class_args)
        except ValueError as error:
            problem("tuner.classArgs", str(error))
        class_args.pop("optimize_mode", None)
        if "seed" in class_args:
            spec["seed"] = class_args.pop("seed")
        if name in _TUNERS:
            spec["search"] = {"algorithm": _TUNERS[name]}
        elif name in _TUNER_HINTS:
            problem("tuner.name", "%s is not a Tunedeck searcher: %s" % (name, _TUNER_HINTS[name]))
        else:
            problem("tuner.name", "unknown tuner %r (Tunedeck maps %s)"
                    % (name, ", ".join(sorted(_TUNERS))))
        for key in class_args:
            problem("tuner.classArgs.%s" % key, "not read by Tunedeck's %s; remove it"
                    % spec.get("search", {}).get("algorithm", "searcher"))
    if advisor is not None:
        name = (advisor or {}).get("name")
        class_args = dict((advisor or {}).get("classArgs") or {})
        try:
            mode = _mode(class_args)
        except ValueError as error:
            problem("advisor.classArgs", str(error))
        if name not in ("Hyperband", "BOHB"):
            problem("advisor.name", "unknown advisor %r (Tunedeck maps Hyperband and BOHB)"
                    % (name,))
        else:
            spec["search"] = {"algorithm": "bohb" if name == "BOHB" else "random"}
            spec["scheduler"] = {"type": "hyperband",
                                 "max_t": class_args.get("R", 60),
                                 "reduction_factor": class_args.get("eta", 3)}
            spec["checkpoint"] = {"enabled": True}
    spec["metric"], spec["mode"] = "default", mode

    assessor = config.pop("assessor", None)
    if assessor is not None:
        name = (assessor or {}).get("name")
        class_args = (assessor or {}).get("classArgs") or {}
        if name == "Medianstop":
            spec["scheduler"] = {"type": "median", "time_attr": "training_iteration",
                                 "grace_period": class_args.get("start_step", 0),
                                 "min_samples_required": 1}
        else:
            problem("assessor.name", "%r is not a Tunedeck scheduler: use Medianstop (Tunedeck's "
                    "median), or an experiment file with scheduler: {type: asha}" % (name,))

    gpus = config.pop("trialGpuNumber", None)
    if gpus:
        spec["resources_per_trial"] = {"gpu": gpus}

    service = config.pop("trainingService", None)
    if service is not None:
        services = service if isinstance(service, list) else [service]
        if len(services) > 1:
            problem("trainingService", "one training service: Tunedeck runs an experiment on "
                    "this machine (local) or on the machines of one remote service")
        for one in services:
            platform = (one or {}).get("platform")
            if platform == "local":
                for key in sorted(set(one) - {"platform", "useActiveGpu", "gpuIndices",
                                              "maxTrialNumberPerGpu"}):
                    problem("trainingService.%s" % key, "not read for platform local; remove it")
                if one.get("maxTrialNumberPerGpu", 1) not in (1, None) and gpus:
                    spec["resources_per_trial"]["gpu"] = 1.0 / one["maxTrialNumberPerGpu"]
            elif platform == "remote":
                cluster = _remote_cluster(one, spec["name"], folder, problem)
                if cluster is not None:
                    spec["cluster"] = cluster
                if one.get("maxTrialNumberPerGpu", 1) not in (1, None) and gpus:
                    spec["resources_per_trial"]["gpu"] = 1.0 / one["maxTrialNumberPerGpu"]
            else:
                problem("trainingService.platform", "%r is not supported: Tunedeck runs trials "
                        "on this machine (local) or on a cluster file's nodes (SSH, Slurm, "
                        "Kubernetes through provider: command)" % (platform,))

    if "maxTrialDuration" in config:
        config.pop("maxTrialDuration")
        problem("maxTrialDuration", "no per-trial time limit here: stop trials by a result "
                "(an experiment file's stop: {time_total_s: N}) or bound the whole run with "
                "maxExperimentDuration")
    if "sharedStorage" in config:
        config.pop("sharedStorage")
        problem("sharedStorage", "write storage: shared in a Tunedeck cluster file")
    for key in sorted(config):
        if key in _NO_EFFECT:
            continue
        problem(key, "unknown NNI key (Tunedeck reads experimentName, searchSpaceFile, "
                "searchSpace, trialCommand, trialCodeDirectory, trialConcurrency, "
                "maxTrialNumber, maxExperimentDuration, trialGpuNumber, tuner, advisor, "
                "assessor, trainingService)")
    if problems:
        raise ConfigProblems([text for _, text in sorted(problems, key=lambda p: p[0])])
    return spec, folder
