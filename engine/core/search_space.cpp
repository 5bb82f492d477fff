// The search-space tree: checks across parameters (conditions, grid placement), the grid's
// cartesian product, and sampling a whole config.
#include "core/search_space.h"

#include <QHash>
#include <QSet>
#include <limits>

namespace tunedeck {

namespace {

struct GridParameter {
    QString path;
    const Domain* domain;
};

// Grid parameters in written order; those under a `when` or inside a choice option are left
// out (validate() rejects them, and sampling then treats them as a choice).
void collectGrid(const SearchSpace& space, const QString& prefix, std::vector<GridParameter>& out) {
    for (const auto& parameter : space.parameters) {
        if (parameter.when) {
            continue;
        }
        const QString path = joinPath(prefix, parameter.name);
        if (parameter.kind == Parameter::Kind::Sampled &&
            parameter.domain.kind == DomainKind::Grid) {
            out.push_back({path, &parameter.domain});
        } else if (parameter.kind == Parameter::Kind::Group && parameter.group) {
            collectGrid(*parameter.group, path, out);
        }
    }
}

std::int64_t optionCount(const Domain& domain) {
    return std::max<std::int64_t>(1, static_cast<std::int64_t>(domain.options.size()));
}

void collectFlat(const SearchSpace& space, const QString& prefix,
                 std::vector<std::pair<QString, const Domain*>>& out) {
    for (const auto& parameter : space.parameters) {
        const QString path = joinPath(prefix, parameter.name);
        if (parameter.kind == Parameter::Kind::Sampled) {
            out.emplace_back(path, &parameter.domain);
        } else if (parameter.kind == Parameter::Kind::Group && parameter.group) {
            collectFlat(*parameter.group, path, out);
        }
    }
}

class Sampler {
  public:
    Sampler(Rng& rng, QHash<QString, std::int64_t> gridPick, const QJsonObject* fixed)
        : rng_(rng), gridPick_(std::move(gridPick)), fixed_(fixed) {}

    void sampleGroup(const SearchSpace& space, const QString& prefix,
                     std::vector<GroupFrame>& frames) {
        frames.push_back({&space, prefix, 0});
        for (std::size_t i = 0; i < space.parameters.size(); ++i) {
            frames.back().index = i;
            sampleParameter(space.parameters[i], joinPath(prefix, space.parameters[i].name),
                            frames);
        }
        frames.pop_back();
    }

    QJsonObject config;

  private:
    void sampleParameter(const Parameter& parameter, const QString& path,
                         std::vector<GroupFrame>& frames) {
        const QJsonValue given = fixed_ ? valueAtPath(*fixed_, path) : QJsonValue::Undefined;
        const bool isGiven = !given.isUndefined();
        if (isGiven && !(parameter.kind == Parameter::Kind::Group && given.isObject())) {
            setValueAtPath(config, path, given);
            return;
        }
        if (!isGiven && parameter.when) {
            const QJsonValue decider =
                valueAtPath(config, resolveConditionPath(frames, parameter.when->path));
            if (decider.isUndefined() || !parameter.when->values.contains(decider)) {
                return;
            }
        }
        switch (parameter.kind) {
            case Parameter::Kind::Constant:
                setValueAtPath(config, path, parameter.constant);
                return;
            case Parameter::Kind::Group:
                setValueAtPath(config, path, QJsonObject());
                if (parameter.group) {
                    sampleGroup(*parameter.group, path, frames);
                }
                return;
            case Parameter::Kind::Sampled:
                sampleDomain(parameter.domain, path, frames);
                return;
        }
    }

    void sampleDomain(const Domain& domain, const QString& path, std::vector<GroupFrame>& frames) {
        const bool hasOptions = !isNumericDomain(domain.kind);
        if (hasOptions && domain.options.empty()) {
            return;
        }
        if (domain.kind == DomainKind::Grid && gridPick_.contains(path)) {
            setValueAtPath(config, path, domain.options[gridPick_.value(path)].value);
            return;
        }
        if (!hasOptions) {
            setValueAtPath(config, path, domain.sampleValue(rng_));
            return;
        }
        const auto& option = domain.options[static_cast<std::size_t>(
            rng_.integer(0, static_cast<std::int64_t>(domain.options.size())))];
        if (option.group) {
            setValueAtPath(config, path, QJsonObject());
            sampleGroup(*option.group, path, frames);
        } else {
            setValueAtPath(config, path, option.value);
        }
    }

    Rng& rng_;
    QHash<QString, std::int64_t> gridPick_;
    const QJsonObject* fixed_;
};

// Every dotted path a parameter makes available to the conditions written after it: its own,
// those inside its groups and choice options, and keys of constant or option objects.
void addObjectPaths(const QString& path, const QJsonValue& value, QSet<QString>& out) {
    out.insert(path);
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it) {
            addObjectPaths(joinPath(path, it.key()), it.value(), out);
        }
    }
}

void addSpacePaths(const SearchSpace& space, const QString& prefix, QSet<QString>& out);

void addParameterPaths(const Parameter& parameter, const QString& path, QSet<QString>& out) {
    out.insert(path);
    switch (parameter.kind) {
        case Parameter::Kind::Constant:
            addObjectPaths(path, parameter.constant, out);
            break;
        case Parameter::Kind::Group:
            if (parameter.group) {
                addSpacePaths(*parameter.group, path, out);
            }
            break;
        case Parameter::Kind::Sampled:
            for (const auto& option : parameter.domain.options) {
                if (option.group) {
                    addSpacePaths(*option.group, path, out);
                } else {
                    addObjectPaths(path, option.value, out);
                }
            }
            break;
    }
}

void addSpacePaths(const SearchSpace& space, const QString& prefix, QSet<QString>& out) {
    for (const auto& parameter : space.parameters) {
        addParameterPaths(parameter, joinPath(prefix, parameter.name), out);
    }
}

class Validator {
  public:
    explicit Validator(const SearchSpace& root) { addSpacePaths(root, QString(), everyPath_); }

    // `conditional`: inside a choice option or under a `when`, so not in every config.
    Status checkGroup(const SearchSpace& space, const QString& prefix, bool conditional,
                      std::vector<GroupFrame>& frames) {
        frames.push_back({&space, prefix, 0});
        QSet<QString> names;
        for (std::size_t i = 0; i < space.parameters.size(); ++i) {
            frames.back().index = i;
            const Parameter& parameter = space.parameters[i];
            if (Status status = checkParameter(parameter, prefix, names, conditional, frames);
                !status.isOk()) {
                return status;
            }
            addParameterPaths(parameter, joinPath(prefix, parameter.name), known_);
        }
        frames.pop_back();
        return Status::ok();
    }

  private:
    Status checkParameter(const Parameter& parameter, const QString& prefix, QSet<QString>& names,
                          bool conditional, std::vector<GroupFrame>& frames) {
        const QString path = joinPath(prefix, parameter.name);
        auto fail = [&](const QString& problem) {
            QString where = parameter.location.toString();
            if (!where.isEmpty()) {
                where += QStringLiteral(": ");
            }
            const QString who = path.isEmpty() ? problem : path + QStringLiteral(": ") + problem;
            return Status::invalid(where + who);
        };
        if (parameter.name.isEmpty()) {
            return fail(QStringLiteral("a parameter needs a name"));
        }
        if (parameter.name.contains(QLatin1Char('.'))) {
            return fail(
                QStringLiteral("a parameter name cannot contain '.' (dots separate the "
                               "names of nested groups)"));
        }
        if (names.contains(parameter.name)) {
            return fail(QStringLiteral("written twice in the same group"));
        }
        names.insert(parameter.name);

        if (parameter.when) {
            const Condition& when = *parameter.when;
            if (when.path.isEmpty()) {
                return fail(QStringLiteral("when: needs the name of the parameter it depends on"));
            }
            if (when.values.isEmpty()) {
                return fail(
                    QStringLiteral("when: needs at least one value of '%1'").arg(when.path));
            }
            const QString resolved = resolveConditionPath(frames, when.path);
            if (!known_.contains(resolved)) {
                if (everyPath_.contains(resolved)) {
                    return fail(QStringLiteral("when: '%1' must be written before '%2' (a "
                                               "condition depends on a parameter above it)")
                                    .arg(when.path, parameter.name));
                }
                return fail(QStringLiteral("when: there is no parameter '%1'").arg(when.path));
            }
        }
        const bool conditionalHere = conditional || parameter.when.has_value();

        switch (parameter.kind) {
            case Parameter::Kind::Constant:
                return Status::ok();
            case Parameter::Kind::Group:
                if (!parameter.group) {
                    return Status::ok();
                }
                return checkGroup(*parameter.group, path, conditionalHere, frames);
            case Parameter::Kind::Sampled:
                break;
        }

        const Domain& domain = parameter.domain;
        if (Status status = domain.validate(); !status.isOk()) {
            return fail(status.message());
        }
        if (domain.kind == DomainKind::Grid && conditionalHere) {
            return fail(
                parameter.when
                    ? QStringLiteral("grid: a grid parameter cannot have a `when` condition; "
                                     "every grid point must exist in every trial")
                    : QStringLiteral("grid: a grid parameter cannot be inside a choice option or "
                                     "a conditional group; every grid point must exist in every "
                                     "trial"));
        }
        for (const auto& option : domain.options) {
            if (option.group) {
                if (Status status = checkGroup(*option.group, path, true, frames); !status.isOk()) {
                    return status;
                }
            }
        }
        return Status::ok();
    }

    QSet<QString> everyPath_;
    QSet<QString> known_;  // paths written before the parameter being checked
};

}  // namespace

QString joinPath(const QString& prefix, const QString& name) {
    return prefix.isEmpty() ? name : prefix + QLatin1Char('.') + name;
}

// A `when` path is resolved like a name in nested scopes: its first segment names a parameter
// written earlier in the innermost enclosing group that has one, else it is a path from the
// top of the space. So `when: {type: [cnn]}` inside group `model` means `model.type`, and
// `when: {optimizer: [sgd]}` there still finds a top-level `optimizer`.
QString resolveConditionPath(const std::vector<GroupFrame>& frames, const QString& path) {
    const QString first = path.section(QLatin1Char('.'), 0, 0);
    for (auto frame = frames.rbegin(); frame != frames.rend(); ++frame) {
        const auto& parameters = frame->space->parameters;
        // Outer frames may name the parameter that contains us (`model.type` from inside
        // `model`); the innermost frame only what comes before.
        const std::size_t visible = frame == frames.rbegin() ? frame->index : frame->index + 1;
        for (std::size_t i = 0; i < std::min(visible, parameters.size()); ++i) {
            if (parameters[i].name == first) {
                return joinPath(frame->prefix, path);
            }
        }
    }
    return path;
}

QStringList SearchSpace::gridPaths() const {
    std::vector<GridParameter> grid;
    collectGrid(*this, QString(), grid);
    QStringList paths;
    for (const auto& parameter : grid) {
        paths.append(parameter.path);
    }
    return paths;
}

std::int64_t SearchSpace::gridSize() const {
    std::vector<GridParameter> grid;
    collectGrid(*this, QString(), grid);
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    std::int64_t size = 1;
    for (const auto& parameter : grid) {
        const std::int64_t count = optionCount(*parameter.domain);
        size = size > kMax / count ? kMax : size * count;
    }
    return size;
}

std::vector<std::pair<QString, const Domain*>> SearchSpace::flatDomains() const {
    std::vector<std::pair<QString, const Domain*>> out;
    collectFlat(*this, QString(), out);
    return out;
}

Status SearchSpace::validate() const {
    Validator validator(*this);
    std::vector<GroupFrame> frames;
    return validator.checkGroup(*this, QString(), false, frames);
}

QJsonObject SearchSpace::sample(Rng& rng, std::int64_t gridIndex) const {
    return sample(rng, gridIndex, QJsonObject());
}

QJsonObject SearchSpace::sample(Rng& rng, std::int64_t gridIndex, const QJsonObject& fixed) const {
    std::vector<GridParameter> grid;
    collectGrid(*this, QString(), grid);
    const std::int64_t size = gridSize();
    std::int64_t rest = ((gridIndex % size) + size) % size;
    // The first grid parameter varies slowest (itertools.product order), so digits are taken
    // from the last one first.
    QHash<QString, std::int64_t> pick;
    for (auto it = grid.rbegin(); it != grid.rend(); ++it) {
        const std::int64_t count = optionCount(*it->domain);
        pick.insert(it->path, rest % count);
        rest /= count;
    }
    Sampler sampler(rng, std::move(pick), fixed.isEmpty() ? nullptr : &fixed);
    std::vector<GroupFrame> frames;
    sampler.sampleGroup(*this, QString(), frames);
    return sampler.config;
}

QJsonValue valueAtPath(const QJsonObject& config, const QString& dottedPath) {
    if (dottedPath.isEmpty()) {
        return QJsonValue(QJsonValue::Undefined);
    }
    const QStringList parts = dottedPath.split(QLatin1Char('.'));
    QJsonObject object = config;
    for (qsizetype i = 0; i < parts.size(); ++i) {
        const auto it = object.constFind(parts[i]);
        if (it == object.constEnd()) {
            return QJsonValue(QJsonValue::Undefined);
        }
        if (i == parts.size() - 1) {
            return it.value();
        }
        if (!it.value().isObject()) {
            return QJsonValue(QJsonValue::Undefined);
        }
        object = it.value().toObject();
    }
    return QJsonValue(QJsonValue::Undefined);
}

void setValueAtPath(QJsonObject& config, const QString& dottedPath, const QJsonValue& value) {
    const qsizetype dot = dottedPath.indexOf(QLatin1Char('.'));
    if (dot < 0) {
        config.insert(dottedPath, value);
        return;
    }
    const QString head = dottedPath.left(dot);
    QJsonObject child = config.value(head).toObject();
    setValueAtPath(child, dottedPath.mid(dot + 1), value);
    config.insert(head, child);
}

}  // namespace tunedeck
