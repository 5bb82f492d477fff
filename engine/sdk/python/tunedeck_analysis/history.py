"""Reads an experiment folder's experiment.sqlite, read-only, with the standard sqlite3 module.

Why SQLite and not the engine's JSON output: an experiment folder is meant to be copied off a
server and opened elsewhere (DESIGN.md, "History"), often on a laptop that has Python and pandas
but no tunedeck-engine; the store's tables are versioned (PRAGMA user_version, only ever extended
by new tables), and every column read here exists since version 1. The one rule that must not
drift from the engine's, which trial is best, lives in scores.py and is checked against
`tunedeck-engine best` by the tests. One History per call; not shared between threads.
"""

import ipaddress
import json
import os
import sqlite3
import time

# The newest history layout this package knows. A newer one still opens (versions only add
# tables), with a note, since a column read here could in principle have changed.
KNOWN_SCHEMA_VERSION = 3

# Non-finite metrics travel as these strings (PROTOCOL.md); results read them back as floats,
# as Ray's dataframe shows NaN.
_NON_FINITE = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}


def experiment_database(folder):
    folder = os.path.abspath(os.fspath(folder))
    database = os.path.join(folder, "experiment.sqlite")
    if not os.path.isfile(database):
        raise FileNotFoundError(
            "%s is not a Tunedeck experiment folder (no experiment.sqlite)" % folder)
    return folder, database


def _connect(database):
    # mode=ro: never creates or changes the file, whatever the engine is doing with it.
    return sqlite3.connect("file:%s?mode=ro" % database.replace("?", "%3f"), uri=True,
                           timeout=10)


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_ip_address(text):
    try:
        ipaddress.ip_address(text)
        return True
    except ValueError:
        return False


def _places(connection, results):
    """The node each result came from, and each node's host name, from the history's events:
    a trial runs on the node its latest status change before the result names (it may move on
    a restore), and a node's name is what its agent reported when it came up."""
    events = connection.execute(
        "SELECT seq, type, trial_id, payload FROM events "
        "WHERE type IN ('trial_status', 'node') ORDER BY seq").fetchall()
    node_of_trial, hostnames, nodes = {}, {}, []
    at = 0
    for seq, trial_id, _, _, _ in results:
        while at < len(events) and events[at][0] < seq:
            _, kind, event_trial, payload = events[at]
            payload = json.loads(payload)
            if kind == "trial_status" and isinstance(payload.get("node"), str):
                node_of_trial[event_trial] = payload["node"]
            elif kind == "node" and payload.get("state") == "up":
                host = (payload.get("details") or {}).get("hostname")
                if isinstance(host, str) and isinstance(payload.get("node"), str):
                    hostnames[payload["node"]] = host
            at += 1
        nodes.append(node_of_trial.get(trial_id))
    return nodes, hostnames


def _numbers(result):
    return {k: _NON_FINITE.get(v, v) if isinstance(v, str) else v for k, v in result.items()}


class History:
    """The rows of one experiment, as they were when it was read."""

    def __init__(self, folder):
        self.folder, database = experiment_database(folder)
        connection = _connect(database)
        try:
            self.schema_version = connection.execute("PRAGMA user_version").fetchone()[0]
            row = connection.execute(
                "SELECT name, spec_text, spec_file, seed, status, created_at, finished_at "
                "FROM experiment WHERE id = 1").fetchone()
            if row is None:
                raise ValueError("%s: the history has no experiment record yet" % database)
            (self.name, self.spec_text, self.spec_file, self.seed, self.status,
             self.created_at, self.finished_at) = row
            self.trials = [
                {"trial_id": r[0], "index": r[1], "config": json.loads(r[2]), "status": r[3],
                 "failures": r[4], "iteration": r[5], "time_total_s": r[6],
                 "last_result": _numbers(json.loads(r[7])), "error": r[8], "node": r[9],
                 "started_at": r[10], "finished_at": r[11],
                 "logdir": os.path.join(self.folder, "trials", r[0])}
                for r in connection.execute(
                    "SELECT id, idx, config, status, failures, iteration, time_total_s, "
                    "last_result, error_message, node_id, started_at, finished_at "
                    "FROM trials ORDER BY idx, id")]
            # Notes on trials (`tunedeck-engine note`, the app's Trial > Edit note): trial_note
            # events, the latest counting, an empty one removing it, as the engine reads them.
            notes = {}
            for (payload,) in connection.execute(
                    "SELECT payload FROM events WHERE type = 'trial_note' ORDER BY seq"):
                note = json.loads(payload)
                trial, text = note.get("trial"), note.get("note")
                if isinstance(trial, str) and isinstance(text, str):
                    if text:
                        notes[trial] = text
                    else:
                        notes.pop(trial, None)
            for trial in self.trials:
                trial["note"] = notes.get(trial["trial_id"])
            # (trial_id, iteration, result) in the order the engine recorded them, and where
            # each ran (see _places).
            rows = connection.execute(
                "SELECT seq, trial_id, iteration, timestamp, data FROM results ORDER BY seq"
            ).fetchall()
            self.results = [(r[1], r[2], json.loads(r[4])) for r in rows]
            self.result_timestamps = [r[3] for r in rows]
            self.result_nodes, self.node_hostnames = _places(connection, rows)
        finally:
            connection.close()

    def run_fields(self):
        """For each result (in the order of self.results), the columns of Ray's dataframe the
        engine does not write into results, taken from the history: done, date, pid,
        hostname, node_ip, time_since_restore, experiment_id (README.md, "Ray's columns")."""
        status = {t["trial_id"]: t["status"] for t in self.trials}
        last = {}
        for index, (trial_id, _, _) in enumerate(self.results):
            last[trial_id] = index
        since_restore = {}
        fields = []
        for index, (trial_id, _, result) in enumerate(self.results):
            # Time since the trial last (re)started: its iterations' times since the result
            # that began the run (iterations_since_restore 1).
            this_iter = result.get("time_this_iter_s")
            if result.get("iterations_since_restore") == 1 or trial_id not in since_restore:
                since_restore[trial_id] = 0.0
            if _is_number(this_iter) and since_restore[trial_id] is not None:
                since_restore[trial_id] += this_iter
            else:
                since_restore[trial_id] = None
            timestamp = result.get("timestamp")
            if not _is_number(timestamp):
                timestamp = self.result_timestamps[index]
            node = self.result_nodes[index]
            fields.append({
                "done": result.get("done") is True or (
                    last[trial_id] == index and status.get(trial_id) == "TERMINATED"),
                "date": time.strftime("%Y-%m-%d_%H-%M-%S", time.localtime(timestamp)),
                "pid": None,  # trial processes' ids are not recorded
                "hostname": self.node_hostnames.get(node),
                "node_ip": node if _is_ip_address(node) else None,
                "time_since_restore": since_restore[trial_id],
                "experiment_id": os.path.basename(self.folder),
            })
        return fields

    def result_dicts(self):
        return [_numbers(result) for _, _, result in self.results]

    def system_usage(self):
        """Each trial's samples of CPU and memory (the `trials` of the node_usage table, schema
        version 3 on; recorded by engines that sample trials), in time order."""
        rows = []
        if self.schema_version < 3:
            return rows
        connection = _connect(os.path.join(self.folder, "experiment.sqlite"))
        try:
            for timestamp, node, data in connection.execute(
                    "SELECT timestamp, node, data FROM node_usage ORDER BY seq"):
                for trial in json.loads(data).get("trials", []):
                    rows.append({"trial_id": trial.get("trial"), "timestamp": timestamp,
                                 "node": node, "cpu_percent": trial.get("cpu_percent"),
                                 "rss_mb": trial.get("rss_mb"),
                                 "gpu_memory_mb": trial.get("gpu_memory_mb")})
        finally:
            connection.close()
        return rows
