"""Reads an experiment folder's experiment.sqlite, read-only, with the standard sqlite3 module.

Why SQLite and not the engine's JSON output: an experiment folder is meant to be copied off a
server and opened elsewhere (DESIGN.md, "History"), often on a laptop that has Python and pandas
but no tunedeck-engine; the store's tables are versioned (PRAGMA user_version, only ever extended
by new tables), and every column read here exists since version 1. The one rule that must not
drift from the engine's, which trial is best, lives in scores.py and is checked against
`tunedeck-engine best` by the tests. One History per call; not shared between threads.
"""

import json
import os
import sqlite3

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
            # (trial_id, iteration, result) in the order the engine recorded them.
            self.results = [(r[0], r[1], json.loads(r[2])) for r in connection.execute(
                "SELECT trial_id, iteration, data FROM results ORDER BY seq")]
        finally:
            connection.close()

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
