#include "config/search_space_yaml.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <memory>

#include "config/input_limits.h"
#include "core/counted.h"

namespace tunedeck {

namespace {

struct DomainSyntax {
    QString name;
    DomainKind kind;
    QStringList arguments;  // empty for choice and grid, which take a list of values
    bool integers;
};

const std::vector<DomainSyntax>& domainSyntaxes() {
    static const std::vector<DomainSyntax> syntaxes = {
        {"uniform", DomainKind::Uniform, {"low", "high"}, false},
        {"quniform", DomainKind::QUniform, {"low", "high", "q"}, false},
        {"loguniform", DomainKind::LogUniform, {"low", "high"}, false},
        {"qloguniform", DomainKind::QLogUniform, {"low", "high", "q"}, false},
        {"randint", DomainKind::RandInt, {"low", "high"}, true},
        {"qrandint", DomainKind::QRandInt, {"low", "high", "q"}, true},
        {"lograndint", DomainKind::LogRandInt, {"low", "high"}, true},
        {"qlograndint", DomainKind::QLogRandInt, {"low", "high", "q"}, true},
        {"normal", DomainKind::Normal, {"mu", "sigma"}, false},
        {"qnormal", DomainKind::QNormal, {"mu", "sigma", "q"}, false},
        {"choice", DomainKind::Choice, {}, false},
        {"grid", DomainKind::Grid, {}, false},
    };
    return syntaxes;
}

// Ray Tune's name for the grid, as users write it in a param_space dictionary.
const QString kRayGridSearch = QStringLiteral("grid_search");

const DomainSyntax* syntaxNamed(const QString& name) {
    const QString wanted = name == kRayGridSearch ? QStringLiteral("grid") : name;
    for (const DomainSyntax& syntax : domainSyntaxes()) {
        if (syntax.name == wanted) {
            return &syntax;
        }
    }
    return nullptr;
}

// Keys of other tools that are no domain here, with what to write instead.
QString foreignDomainAdvice(const QString& key) {
    if (key == QLatin1String("randn")) {
        return QStringLiteral("Ray's randn is 'normal' here: {normal: [mu, sigma]}");
    }
    if (key == QLatin1String("qrandn")) {
        return QStringLiteral("Ray's qrandn is 'qnormal' here: {qnormal: [mu, sigma, q]}");
    }
    if (key == QLatin1String("sample_from")) {
        return QStringLiteral(
            "Ray's sample_from takes a Python function, which a YAML file cannot hold; write a "
            "domain (e.g. {uniform: [low, high]} or {choice: [...]}), or a domain with `when:` "
            "for a value that depends on another parameter");
    }
    return {};
}

// NNI's inline form: {_type: uniform, _value: [0, 1]}.
bool isNniMapping(const YAML::Node& node) {
    return node.IsMap() && node["_type"];
}

// The NNI _type names this reader takes (the domains of the same name; randint's arguments are
// NNI's [lower, upper]).
const QStringList& nniTypeNames() {
    static const QStringList names = {"choice",     "randint",     "uniform", "quniform",
                                      "loguniform", "qloguniform", "normal",  "qnormal"};
    return names;
}

bool isDomainMapping(const YAML::Node& node) {
    if (!node.IsMap()) {
        return false;
    }
    if (isNniMapping(node)) {
        return true;
    }
    for (auto it = node.begin(); it != node.end(); ++it) {
        if (it->first.IsScalar() && syntaxNamed(yamlText(it->first))) {
            return true;
        }
    }
    return false;
}

bool containsDomain(const YAML::Node& node) {
    if (!node.IsMap()) {
        return false;
    }
    if (isDomainMapping(node)) {
        return true;
    }
    for (auto it = node.begin(); it != node.end(); ++it) {
        if (containsDomain(it->second)) {
            return true;
        }
    }
    return false;
}

// The numbers of a YAML value written as floats ("1.0", "2e-3", not "1"), by path inside it:
// the JSON value alone cannot tell 1.0 from 1 (core/config_json.h). The path is built in one
// buffer, extended and cut back (`path`), and only a float's is copied; every value's path
// length is added to `pathBytes`, and the walk stops once that passes `limit`. Without both, 64
// levels of long keys repeated through aliases kept gigabytes of paths.
void addWrittenFloats(const YAML::Node& node, QString* path, std::int64_t* pathBytes,
                      std::int64_t limit, FloatPaths* out) {
    if ((*pathBytes += path->size()) > limit) {
        return;
    }
    const auto inner = [&](const QString& key, const YAML::Node& child) {
        const qsizetype mark = path->size();
        if (mark > 0) {
            path->append(QLatin1Char('.'));
        }
        path->append(key);
        addWrittenFloats(child, path, pathBytes, limit, out);
        path->truncate(mark);
    };
    if (node.IsScalar()) {
        // yaml-cpp tags quoted scalars "!"; an explicit !!str is text too.
        const bool text = node.Tag() == "!" || node.Tag() == "tag:yaml.org,2002:str";
        const QString written = yamlText(node);
        if (!text && !parseYamlInteger(written) && parseYamlNumber(written)) {
            out->insert(*path);
        }
    } else if (node.IsSequence()) {
        for (std::size_t i = 0; i < node.size() && *pathBytes <= limit; ++i) {
            inner(QString::number(i), node[i]);
        }
    } else if (node.IsMap()) {
        for (auto it = node.begin(); it != node.end() && *pathBytes <= limit; ++it) {
            if (it->first.IsScalar()) {
                inner(yamlText(it->first), it->second);
            }
        }
    }
}

void setArgument(Domain* domain, const QString& name, double value) {
    if (name == QLatin1String("low")) {
        domain->low = value;
    } else if (name == QLatin1String("high")) {
        domain->high = value;
    } else if (name == QLatin1String("q")) {
        domain->q = value;
    } else if (name == QLatin1String("mu")) {
        domain->mu = value;
    } else if (name == QLatin1String("sigma")) {
        domain->sigma = value;
    }
}

class SpaceReader {
  public:
    explicit SpaceReader(YamlReader& reader) : reader_(reader) {}

    // `when` is where a `when:` key of this mapping goes; null where conditions make no sense.
    void readGroup(const YAML::Node& map, const QString& prefix, SearchSpace* out,
                   std::optional<Condition>* when) {
        for (const YamlEntry& entry : reader_.entries(map, prefix)) {
            if (entry.key == QLatin1String("when")) {
                if (when == nullptr) {
                    fail(entry.keyLocation, entry.path,
                         QStringLiteral("'when' goes inside the parameter it makes conditional"));
                } else if (Condition condition; readCondition(entry, &condition)) {
                    *when = condition;
                }
                continue;
            }
            Parameter parameter;
            if (readParameter(entry, &parameter)) {
                out->parameters.push_back(std::move(parameter));
            }
        }
    }

    bool ok() const { return ok_; }

  private:
    // writtenFloats (above) of `node`, within the input limits on paths for the whole space:
    // past them the file is refused at `at`.
    FloatPaths writtenFloats(const YAML::Node& node) {
        FloatPaths floats;
        QString path;
        const std::int64_t limit = InputLimits().maxPathBytes;
        addWrittenFloats(node, &path, &walkedPathBytes_, limit, &floats);
        if (walkedPathBytes_ > limit && !pathsRefused_) {
            pathsRefused_ = true;
            fail(reader_.locationOf(node), QString(), inputPathsProblem());
        }
        return floats;
    }

    void fail(const SourceLocation& at, const QString& key, const QString& message) {
        reader_.problem(at, key, message);
        ok_ = false;
    }

    bool readParameter(const YamlEntry& entry, Parameter* out) {
        out->name = entry.key;
        out->location = entry.keyLocation;
        if (entry.key.isEmpty() || entry.key.contains(QLatin1Char('.'))) {
            fail(entry.keyLocation, entry.path,
                 QStringLiteral("parameter names cannot be empty or contain '.' (nest a group "
                                "instead)"));
            return false;
        }
        const YAML::Node& value = entry.value;
        if (value.IsNull()) {
            fail(entry.valueLocation, entry.path,
                 QStringLiteral("has no value (write a constant, a domain such as "
                                "{uniform: [0, 1]}, or a nested group)"));
            return false;
        }
        if (!value.IsMap()) {
            out->kind = Parameter::Kind::Constant;
            out->constant = reader_.toJson(value);
            out->writtenFloats = writtenFloats(value);
            return true;
        }
        if (isNniMapping(value)) {
            return readNniParameter(entry, out);
        }
        if (isDomainMapping(value)) {
            return readDomainParameter(entry, out);
        }
        if (rejectsForeignDomain(entry)) {
            return false;
        }
        if (looksLikeMisspelledDomain(entry)) {
            return false;
        }
        out->kind = Parameter::Kind::Group;
        out->group = std::make_shared<SearchSpace>();
        readGroup(value, entry.path, out->group.get(), &out->when);
        return true;
    }

    // {randn: [0, 1]}, {sample_from: ...}: Ray's names that are no domain here.
    bool rejectsForeignDomain(const YamlEntry& entry) {
        if (entry.value.size() != 1 || !entry.value.begin()->first.IsScalar()) {
            return false;
        }
        const YAML::Node key = entry.value.begin()->first;
        const QString advice = foreignDomainAdvice(yamlText(key));
        if (advice.isEmpty()) {
            return false;
        }
        fail(reader_.locationOf(key), entry.path + QLatin1Char('.') + yamlText(key), advice);
        return true;
    }

    // {_type: loguniform, _value: [0.0001, 0.1]}, as NNI's search_space.json writes a parameter.
    bool readNniParameter(const YamlEntry& entry, Parameter* out) {
        out->kind = Parameter::Kind::Sampled;
        const std::vector<YamlEntry> entries = reader_.entries(entry.value, entry.path);
        bool sound = true;
        for (const YamlEntry& inner : entries) {
            if (inner.key != QLatin1String("_type") && inner.key != QLatin1String("_value")) {
                fail(inner.keyLocation, inner.path,
                     QStringLiteral("unknown key next to _type (NNI parameters have _type and "
                                    "_value)"));
                sound = false;
            }
        }
        const YamlEntry* typeEntry = findEntry(entries, QStringLiteral("_type"));
        const std::optional<QString> type = reader_.string(*typeEntry);
        if (!type) {
            return false;
        }
        if (*type == QLatin1String("lognormal") || *type == QLatin1String("qlognormal")) {
            fail(typeEntry->valueLocation, typeEntry->path,
                 QStringLiteral("_type '%1' is not supported (there is no log-normal domain; "
                                "loguniform is the closest)")
                     .arg(*type));
            return false;
        }
        if (!nniTypeNames().contains(*type)) {
            const QString suggestion = didYouMean(*type, nniTypeNames());
            fail(typeEntry->valueLocation, typeEntry->path,
                 QStringLiteral("unknown _type '%1'%2")
                     .arg(*type, suggestion.isEmpty()
                                     ? QStringLiteral(" (known: %1)")
                                           .arg(nniTypeNames().join(QStringLiteral(", ")))
                                     : suggestion));
            return false;
        }
        const YamlEntry* valueEntry = findEntry(entries, QStringLiteral("_value"));
        if (!valueEntry) {
            fail(entry.keyLocation, entry.path,
                 QStringLiteral("_type '%1' needs its _value").arg(*type));
            return false;
        }
        return readDomain(*valueEntry, entry.path, *syntaxNamed(*type), &out->domain) && sound;
    }

    // {unifrom: [0, 1]} would otherwise be a group holding a list constant named "unifrom".
    bool looksLikeMisspelledDomain(const YamlEntry& entry) {
        if (entry.value.size() != 1) {
            return false;
        }
        const auto only = entry.value.begin();
        if (!only->first.IsScalar() || !only->second.IsSequence()) {
            return false;
        }
        const QString key = yamlText(only->first);
        const QString suggestion = didYouMean(key, domainSyntaxNames());
        if (suggestion.isEmpty()) {
            return false;
        }
        fail(reader_.locationOf(only->first), entry.path + QLatin1Char('.') + key,
             QStringLiteral("unknown domain") + suggestion);
        return true;
    }

    bool readDomainParameter(const YamlEntry& entry, Parameter* out) {
        out->kind = Parameter::Kind::Sampled;
        const YamlEntry* domainEntry = nullptr;
        bool sound = true;
        const std::vector<YamlEntry> entries = reader_.entries(entry.value, entry.path);
        QString domainName;
        for (const YamlEntry& inner : entries) {
            if (domainName.isEmpty() && syntaxNamed(inner.key)) {
                domainName = inner.key;
            }
        }
        for (const YamlEntry& inner : entries) {
            if (syntaxNamed(inner.key)) {
                if (domainEntry) {
                    fail(inner.keyLocation, entry.path,
                         QStringLiteral("a parameter takes one domain, got '%1' and '%2'")
                             .arg(domainEntry->key, inner.key));
                    sound = false;
                    continue;
                }
                domainEntry = &inner;
                sound =
                    readDomain(inner, entry.path, *syntaxNamed(inner.key), &out->domain) && sound;
            } else if (inner.key == QLatin1String("when")) {
                Condition condition;
                if (readCondition(inner, &condition)) {
                    out->when = condition;
                } else {
                    sound = false;
                }
            } else {
                QStringList known = domainSyntaxNames();
                known << QStringLiteral("when");
                fail(inner.keyLocation, inner.path,
                     QStringLiteral("unknown key next to the domain '%1'%2")
                         .arg(domainName, didYouMean(inner.key, known)));
                sound = false;
            }
        }
        return sound;
    }

    bool readDomain(const YamlEntry& entry, const QString& path, const DomainSyntax& syntax,
                    Domain* out) {
        out->kind = syntax.kind;
        const bool valueList = syntax.arguments.isEmpty();
        const QString shape =
            valueList ? QStringLiteral("a list of values")
                      : QStringLiteral("[%1]").arg(syntax.arguments.join(QStringLiteral(", ")));
        if (!entry.value.IsSequence()) {
            fail(entry.valueLocation, path,
                 QStringLiteral("%1 takes %2, got %3")
                     .arg(syntax.name, shape, describeYaml(entry.value)));
            return false;
        }
        if (valueList) {
            return readOptions(entry, path, syntax, out);
        }
        if (entry.value.size() != size_t(syntax.arguments.size())) {
            fail(entry.valueLocation, path,
                 QStringLiteral("%1 takes %2, got %3")
                     .arg(syntax.name, shape, counted(qint64(entry.value.size()), "value")));
            return false;
        }
        bool sound = true;
        for (qsizetype i = 0; i < syntax.arguments.size(); ++i) {
            const YAML::Node item = entry.value[size_t(i)];
            std::optional<double> value;
            if (syntax.integers) {
                const auto integer = reader_.integer(item, path);
                value = integer ? std::optional(double(*integer)) : std::nullopt;
            } else {
                value = reader_.number(item, path);
            }
            if (!value) {
                ok_ = false;
                sound = false;
                continue;
            }
            setArgument(out, syntax.arguments[i], *value);
        }
        return sound;
    }

    bool readOptions(const YamlEntry& entry, const QString& path, const DomainSyntax& syntax,
                     Domain* out) {
        bool sound = true;
        for (const YAML::Node& item : entry.value) {
            DomainOption option;
            option.value = reader_.toJson(item);
            option.writtenFloats = writtenFloats(item);
            if (containsDomain(item)) {
                if (syntax.kind == DomainKind::Grid) {
                    fail(reader_.locationOf(item), path,
                         QStringLiteral("grid values are constants; use choice to hold "
                                        "parameters that are sampled"));
                    sound = false;
                    continue;
                }
                if (isDomainMapping(item)) {
                    fail(reader_.locationOf(item), path,
                         QStringLiteral("a choice value cannot be a bare domain; give it a "
                                        "name, e.g. {lr: {uniform: [0, 1]}}"));
                    sound = false;
                    continue;
                }
                option.group = std::make_shared<SearchSpace>();
                readGroup(item, path, option.group.get(), nullptr);
            }
            out->options.push_back(std::move(option));
        }
        return sound;
    }

    bool readCondition(const YamlEntry& entry, Condition* out) {
        const QString shape =
            QStringLiteral("expected {parameter: value} or {parameter: [values]}, got %1");
        if (!entry.value.IsMap() || entry.value.size() != 1) {
            fail(entry.valueLocation, entry.path, shape.arg(describeYaml(entry.value)));
            return false;
        }
        const auto only = entry.value.begin();
        if (!only->first.IsScalar() || only->second.IsMap() || only->second.IsNull()) {
            fail(entry.valueLocation, entry.path, shape.arg(describeYaml(entry.value)));
            return false;
        }
        out->path = yamlText(only->first);
        const QJsonValue values = reader_.toJson(only->second);
        out->values = values.isArray() ? values.toArray() : QJsonArray{values};
        return true;
    }

    YamlReader& reader_;
    bool ok_ = true;
    std::int64_t walkedPathBytes_ = 0;  // by writtenFloats, over the whole space
    bool pathsRefused_ = false;
};

void checkDomains(const SearchSpace& space, const QString& prefix, ProblemList* problems) {
    for (const Parameter& parameter : space.parameters) {
        const QString path =
            prefix.isEmpty() ? parameter.name : prefix + QLatin1Char('.') + parameter.name;
        if (parameter.kind == Parameter::Kind::Group && parameter.group) {
            checkDomains(*parameter.group, path, problems);
        }
        if (parameter.kind != Parameter::Kind::Sampled) {
            continue;
        }
        if (const Status status = parameter.domain.validate(); !status.isOk()) {
            problems->add(parameter.location, path, status.message());
        }
        for (const DomainOption& option : parameter.domain.options) {
            if (option.group) {
                checkDomains(*option.group, path, problems);
            }
        }
    }
}

void addValuePaths(const QJsonValue& value, const QString& path, QStringList* out) {
    const QJsonObject object = value.toObject();
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QString child = path + QLatin1Char('.') + it.key();
        out->append(child);
        addValuePaths(it.value(), child, out);
    }
}

void addPaths(const SearchSpace& space, const QString& prefix, QStringList* out) {
    for (const Parameter& parameter : space.parameters) {
        const QString path =
            prefix.isEmpty() ? parameter.name : prefix + QLatin1Char('.') + parameter.name;
        out->append(path);
        if (parameter.kind == Parameter::Kind::Constant) {
            addValuePaths(parameter.constant, path, out);
        } else if (parameter.kind == Parameter::Kind::Group && parameter.group) {
            addPaths(*parameter.group, path, out);
        } else {
            for (const DomainOption& option : parameter.domain.options) {
                if (option.group) {
                    addPaths(*option.group, path, out);
                } else {
                    addValuePaths(option.value, path, out);
                }
            }
        }
    }
}

}  // namespace

const QStringList& domainSyntaxNames() {
    static const QStringList names = [] {
        QStringList list;
        for (const DomainSyntax& syntax : domainSyntaxes()) {
            list << syntax.name;
        }
        return list;
    }();
    return names;
}

bool readSearchSpaceYaml(YamlReader& reader, const YamlEntry& entry, SearchSpace* out) {
    if (entry.value.IsNull()) {
        return true;  // no parameters: every trial runs the same command
    }
    if (!entry.value.IsMap()) {
        reader.problem(entry.valueLocation, entry.path,
                       QStringLiteral("expected a mapping of parameters or the path of an NNI "
                                      "search-space JSON file, got %1")
                           .arg(describeYaml(entry.value)));
        return false;
    }
    SpaceReader spaceReader(reader);
    spaceReader.readGroup(entry.value, entry.path, out, nullptr);
    return spaceReader.ok();
}

bool checkSearchSpace(const SearchSpace& space, const QString& prefix, bool complete,
                      const SourceLocation& sortAt, ProblemList* problems) {
    const qsizetype before = problems->size();
    checkDomains(space, prefix, problems);
    if (!complete || problems->size() != before) {
        return false;
    }
    const Status status = space.validate();
    if (status.isOk()) {
        return true;
    }
    // Core writes "file:line:column: path: problem" with the path inside the space; show it
    // like every other line ("search_space.path") and sort it by its own position.
    static const QRegularExpression located(QStringLiteral("^(.+?):(\\d+):(\\d+): (.*)$"),
                                            QRegularExpression::DotMatchesEverythingOption);
    const QRegularExpressionMatch match = located.match(status.message());
    if (!match.hasMatch()) {
        problems->add(Problem{{}, QString(), status.message()}, sortAt);
        return false;
    }
    const SourceLocation at{match.captured(1), match.captured(2).toInt(),
                            match.captured(3).toInt()};
    problems->add(
        at, QString(),
        prefix.isEmpty() ? match.captured(4) : prefix + QLatin1Char('.') + match.captured(4));
    return false;
}

QStringList parameterPaths(const SearchSpace& space) {
    QStringList paths;
    addPaths(space, QString(), &paths);
    paths.removeDuplicates();
    return paths;
}

}  // namespace tunedeck
