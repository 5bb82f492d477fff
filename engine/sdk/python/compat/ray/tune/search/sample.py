"""Ray Tune's search-space functions (tune.uniform, tune.choice, ...) as values that turn into the
domains of a Tunedeck experiment file (engine/config/SCHEMA.md, "search_space"). sample() draws
one value in this process, as Ray's Domain.sample() does (used for PBT mutations written as
domains and by users printing a draw)."""

import math
import random


class Domain:
    """One parameter's domain; spec() is its experiment-file form."""

    def spec(self):
        raise NotImplementedError

    def sample(self, spec=None, size=1, random_state=None):
        rng = random_state if isinstance(random_state, random.Random) else random
        values = [self._draw(rng) for _ in range(size)]
        return values[0] if size == 1 else values

    def _draw(self, rng):
        raise NotImplementedError

    def __repr__(self):
        return "%s(%r)" % (type(self).__name__, self.spec())


class _Range(Domain):
    def __init__(self, kind, args, draw):
        self.kind, self.args, self._drawer = kind, list(args), draw
        self.lower, self.upper = args[0], args[1]

    def spec(self):
        return {self.kind: self.args}

    def _draw(self, rng):
        return self._drawer(rng)


class Float(_Range):
    pass


class Integer(_Range):
    pass


class Categorical(Domain):
    def __init__(self, categories):
        self.categories = list(categories)

    def spec(self):
        return {"choice": self.categories}

    def _draw(self, rng):
        return rng.choice(self.categories)


class Function(Domain):
    """sample_from(fn): a Python callable. Its value cannot be drawn by the engine, so the trial
    process calls it, with Ray's `spec` argument (spec.config: the rest of the config), before
    the trainable starts (README, "Ray Tune scripts")."""

    def __init__(self, func):
        self.func = func

    def spec(self):
        return None

    def _draw(self, rng):
        return self.func(_Spec({}))


class _Spec:
    def __init__(self, config):
        self.config = _AttrDict(config)


class _AttrDict(dict):
    def __getattr__(self, name):
        try:
            value = self[name]
        except KeyError:
            raise AttributeError(name) from None
        return _AttrDict(value) if isinstance(value, dict) else value


def _set_at_path(config, path, value):
    """Puts `value` into `config` at a Ray spec path ('model/width': nested mappings, made as
    needed)."""
    parts = path.split("/")
    for part in parts[:-1]:
        config = config.setdefault(part, {})
    config[parts[-1]] = value


def _round(value, q):
    return round(value / q) * q


def uniform(lower, upper):
    return Float("uniform", [lower, upper], lambda r: r.uniform(lower, upper))


def quniform(lower, upper, q):
    return Float("quniform", [lower, upper, q], lambda r: _round(r.uniform(lower, upper), q))


def loguniform(lower, upper, base=10):
    return Float("loguniform", [lower, upper],
                 lambda r: math.exp(r.uniform(math.log(lower), math.log(upper))))


def qloguniform(lower, upper, q, base=10):
    return Float("qloguniform", [lower, upper, q], lambda r: min(upper, max(lower, _round(
        math.exp(r.uniform(math.log(lower), math.log(upper))), q))))


def randn(mean=0.0, sd=1.0):
    return Float("normal", [mean, sd], lambda r: r.gauss(mean, sd))


def qrandn(mean, sd, q):
    return Float("qnormal", [mean, sd, q], lambda r: _round(r.gauss(mean, sd), q))


def randint(lower, upper):
    return Integer("randint", [lower, upper], lambda r: r.randrange(lower, upper))


def qrandint(lower, upper, q=1):
    return Integer("qrandint", [lower, upper, q],
                   lambda r: int(_round(r.randint(lower, upper), q)))


def lograndint(lower, upper, base=10):
    return Integer("lograndint", [lower, upper], lambda r: min(upper - 1, int(
        math.exp(r.uniform(math.log(lower), math.log(upper))))))


def qlograndint(lower, upper, q, base=10):
    return Integer("qlograndint", [lower, upper, q], lambda r: int(min(upper, max(lower, _round(
        math.exp(r.uniform(math.log(lower), math.log(upper))), q)))))


def choice(categories):
    return Categorical(categories)


def sample_from(func):
    return Function(func)


def grid_search(values):
    """Ray's grid_search: every value is run (the engine's `grid_search`)."""
    return {"grid_search": list(values)}
