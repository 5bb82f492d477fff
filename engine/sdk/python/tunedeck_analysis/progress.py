"""The progress of a run as tunedeck.run shows it: a one-line bar redrawn in place in a terminal,
an HTML <progress> element updated in place in Jupyter (IPython.display, no widgets), and one
line per change elsewhere (a script's log). Fed the engine's events (--events). Not
thread-safe."""

import sys

_BAR_WIDTH = 24


def _jupyter_display():
    """IPython.display when running in a Jupyter kernel, else None. A kernel has imported IPython
    already; importing it anywhere else would only cost time (seconds on a busy machine, long
    enough to miss a short run's whole progress)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None or type(shell).__name__ != "ZMQInteractiveShell":
        return None
    from IPython import display

    return display


class Progress:
    def __init__(self, total, objective, enabled=True, stream=None):
        self.total, self.objective, self.enabled = total, objective, enabled
        self.stream = stream or sys.stderr
        self.status = {}
        self.best = None  # (value, trial)
        self.finished = None
        self.last_text = None
        self.display = _jupyter_display() if enabled else None
        self.handle = None
        self.terminal = enabled and self.display is None and self.stream.isatty()

    def take(self, event):
        kind = event.get("type")
        if kind == "trial_added":
            self.status.setdefault(event.get("trial"), "PENDING")
        elif kind == "trial_status":
            self.status[event.get("trial")] = event.get("status")
        elif kind == "result" and self.objective:
            metric, mode = self.objective
            value = (event.get("result") or {}).get(metric)
            if isinstance(value, (int, float)) and not isinstance(value, bool) and (
                    self.best is None or (value > self.best[0] if mode == "max"
                                          else value < self.best[0])):
                self.best = (value, event.get("trial") or event["result"].get("trial_id"))
        elif kind == "experiment_finished":
            self.finished = event.get("status")

    def text(self):
        states = list(self.status.values())
        done = sum(s in ("TERMINATED", "ERROR") for s in states)
        total = self.total if self.total is not None else len(states)
        parts = ["%d/%s trials done" % (done, total if self.total is not None else "?"),
                 "%d running" % states.count("RUNNING")]
        if states.count("ERROR"):
            parts.append("%d errors" % states.count("ERROR"))
        if self.best is not None:
            parts.append("best %s %.6g (%s)" % (self.objective[0], self.best[0], self.best[1]))
        if self.finished:
            parts.append(self.finished)
        return done, total, ", ".join(parts)

    def show(self):
        if not self.enabled:
            return
        done, total, text = self.text()
        if text == self.last_text:
            return
        self.last_text = text
        if self.display is not None:
            html = self.display.HTML(
                '<progress value="%d" max="%d" style="width:16em"></progress> <code>%s</code>'
                % (done, max(total, 1), text.replace("&", "&amp;").replace("<", "&lt;")))
            if self.handle is None:
                self.handle = self.display.display(html, display_id=True)
            else:
                self.handle.update(html)
        elif self.terminal:
            filled = int(_BAR_WIDTH * done / total) if total else 0
            bar = "#" * filled + "-" * (_BAR_WIDTH - filled)
            self.stream.write("\r[%s] %s\x1b[K" % (bar, text))
            self.stream.flush()
        else:
            self.stream.write("tunedeck: %s\n" % text)
            self.stream.flush()

    def close(self):
        if self.terminal and self.last_text is not None:
            self.stream.write("\n")
            self.stream.flush()
