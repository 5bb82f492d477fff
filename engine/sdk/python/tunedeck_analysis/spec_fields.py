"""The experiment's `metric` and `mode` from the experiment file's text the history keeps.

PyYAML reads it when installed; otherwise a reader of the top-level block keys, which is how
experiment files write them (`metric: loss`, `metric: [loss, latency]`). Either can be
overridden by the caller (`load(DIR, metric=..., mode=...)`). Pure functions.
"""

import re

_TOP_LEVEL = re.compile(r"^(metric|mode)\s*:\s*(.*?)\s*$")


def _scalar(text):
    text = text.split(" #", 1)[0].strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def _value(text):
    text = text.split(" #", 1)[0].strip()
    if text.startswith("[") and text.endswith("]"):
        return [_scalar(part) for part in text[1:-1].split(",") if part.strip()]
    return _scalar(text) or None


def _without_yaml(spec_text):
    found = {}
    lines = spec_text.splitlines()
    for number, line in enumerate(lines):
        match = _TOP_LEVEL.match(line)
        if not match:
            continue
        value = _value(match.group(2))
        if value is None:  # a block list on the lines below: "- loss"
            value = []
            for item in lines[number + 1:]:
                stripped = item.strip()
                if not stripped.startswith("- "):
                    break
                value.append(_scalar(stripped[2:]))
        found[match.group(1)] = value
    return found


def objectives(spec_text):
    """[(metric, mode)] in the file's order; [] when it names no metric."""
    try:
        import yaml  # optional: the exact reading when present
    except ImportError:
        fields = _without_yaml(spec_text)
    else:
        try:
            loaded = yaml.safe_load(spec_text)
        except yaml.YAMLError:
            loaded = None
        fields = loaded if isinstance(loaded, dict) else _without_yaml(spec_text)
    metric, mode = fields.get("metric"), fields.get("mode")
    if not metric:
        return []
    metrics = metric if isinstance(metric, list) else [metric]
    modes = mode if isinstance(mode, list) else [mode] * len(metrics)
    return [(str(m), str(d)) for m, d in zip(metrics, modes)]
