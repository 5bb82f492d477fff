#include "editors/search_space_rows.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tunedeck::app {

namespace {

const QString kSearchSpace = QStringLiteral("search_space");
const QString kWhen = QStringLiteral("when");

bool isOneOf(const QString& domain, std::initializer_list<const char*> names) {
    return std::any_of(names.begin(), names.end(),
                       [&](const char* name) { return domain == QLatin1String(name); });
}

bool isRange(const QString& domain) {
    return isOneOf(domain, {"uniform", "quniform", "loguniform", "qloguniform", "randint",
                            "qrandint", "lograndint"});
}
bool isNormal(const QString& domain) {
    return isOneOf(domain, {"normal", "qnormal"});
}
bool isList(const QString& domain) {
    return isOneOf(domain, {"choice", "grid"});
}
bool hasQ(const QString& domain) {
    return isOneOf(domain, {"quniform", "qloguniform", "qrandint", "qnormal"});
}
bool isInteger(const QString& domain) {
    return isOneOf(domain, {"randint", "qrandint", "lograndint"});
}

// Where a field sits in the domain's argument list; -1 when the domain has no such field.
int argumentIndex(const QString& domain, ParameterField field) {
    switch (field) {
        case ParameterField::Low:
        case ParameterField::High:
            return isRange(domain) ? (field == ParameterField::Low ? 0 : 1) : -1;
        case ParameterField::Mean:
        case ParameterField::Sd:
            return isNormal(domain) ? (field == ParameterField::Mean ? 0 : 1) : -1;
        case ParameterField::Q:
            return hasQ(domain) ? 2 : -1;
        case ParameterField::Values:
            return -1;
    }
    return -1;
}

int argumentCount(const QString& domain) {
    return hasQ(domain) ? 3 : (isRange(domain) || isNormal(domain)) ? 2 : 0;
}

QString number(double value) {
    return QString::number(value, 'g', 6);
}

std::optional<double> numberOf(const QString& text) {
    bool ok = false;
    const double value = text.toDouble(&ok);
    return ok ? std::optional<double>(value) : std::nullopt;
}

QString flowList(const QStringList& items) {
    return QStringLiteral("[") + items.join(QStringLiteral(", ")) + QStringLiteral("]");
}

void readGroup(const YamlText& yaml, const QStringList& keyPath, const QString& prefix,
               QList<ParameterRow>& rows) {
    const QStringList domains = domainNames();
    for (const QString& name : yaml.keys(keyPath)) {
        const QStringList path = keyPath + QStringList{name};
        const QString dotted = prefix.isEmpty() ? name : prefix + QLatin1Char('.') + name;
        ParameterRow row{dotted, path, kConstantDomain, {}, {}, true};
        if (yaml.kind(path) == YamlText::Kind::Mapping) {
            const QStringList keys = yaml.keys(path);
            const auto domain = std::find_if(keys.begin(), keys.end(), [&](const QString& key) {
                return domains.contains(key);
            });
            if (domain == keys.end()) {
                readGroup(yaml, path, dotted, rows);
                continue;
            }
            row.domain = *domain;
            const QStringList argumentPath = path + QStringList{row.domain};
            if (yaml.kind(argumentPath) == YamlText::Kind::Sequence) {
                for (const TextSpan& item : yaml.itemSpans(argumentPath)) {
                    const QString source = yaml.source(item);
                    row.arguments << source.simplified();
                    // A choice option that is a mapping is a group of parameters of its own.
                    if (YamlText(source).kind({}) == YamlText::Kind::Mapping) {
                        row.editable = false;
                    }
                }
            } else {
                row.arguments << yaml.source(yaml.span(argumentPath)).simplified();
            }
            if (keys.contains(kWhen)) {
                row.condition = yaml.source(yaml.span(path + QStringList{kWhen})).simplified();
            }
        } else {
            row.arguments << yaml.source(yaml.span(path)).simplified();
        }
        rows << row;
    }
}

// The new domain's arguments, carrying over what the old fields say.
QStringList argumentsFor(const ParameterRow& row, const QString& domain) {
    const QString& old = row.domain;
    QList<double> numbers;  // the old numeric arguments or values
    for (const QString& argument : row.arguments) {
        if (auto value = numberOf(argument)) {
            numbers << *value;
        }
    }
    const bool numeric = !row.arguments.isEmpty() && numbers.size() == row.arguments.size();
    if (isList(domain)) {
        if (isList(old)) {
            return row.arguments;
        }
        if (old == kConstantDomain) {
            const QString value = row.arguments.value(0);
            const bool list =
                value.startsWith(QLatin1Char('[')) && value.endsWith(QLatin1Char(']'));
            return {list ? value.mid(1, value.size() - 2) : value};
        }
        return row.arguments.mid(0, 2);
    }
    if (domain == kConstantDomain) {
        return {row.arguments.value(0)};
    }
    QStringList bounds;  // low, high
    if (isRange(old) && row.arguments.size() >= 2) {
        bounds = row.arguments.mid(0, 2);
    } else if (isNormal(old) && numbers.size() >= 2) {
        bounds = {number(numbers[0] - 2 * numbers[1]), number(numbers[0] + 2 * numbers[1])};
    } else if (isList(old) && numeric && numbers.size() >= 2) {
        bounds = {number(*std::min_element(numbers.begin(), numbers.end())),
                  number(*std::max_element(numbers.begin(), numbers.end()))};
    } else if (isLogScale(domain)) {
        bounds = {QStringLiteral("1.0e-4"), QStringLiteral("1.0e-1")};
    } else {
        bounds = {QStringLiteral("0"),
                  isInteger(domain) ? QStringLiteral("10") : QStringLiteral("1")};
    }
    QStringList arguments;
    if (isNormal(domain)) {
        if (isNormal(old)) {
            arguments = row.arguments.mid(0, 2);
        } else {
            const double low = numberOf(bounds[0]).value_or(0);
            const double high = numberOf(bounds[1]).value_or(1);
            arguments = {number((low + high) / 2), number(high > low ? (high - low) / 4 : 1)};
        }
    } else {
        arguments = bounds;
        if (isInteger(domain)) {
            for (qsizetype i = 0; i < 2; ++i) {
                const double value = numberOf(arguments[i]).value_or(i);
                if (value != std::floor(value)) {
                    arguments[i] = number(i == 0 ? std::floor(value) : std::ceil(value));
                }
            }
        }
    }
    if (hasQ(domain)) {
        const QString oldQ = hasQ(old) ? row.arguments.value(2) : QString();
        arguments << (!oldQ.isEmpty()     ? oldQ
                      : isInteger(domain) ? QStringLiteral("1")
                                          : QStringLiteral("0.1"));
    }
    return arguments;
}

QList<TextEdit> edits(std::initializer_list<std::optional<TextEdit>> maybe) {
    QList<TextEdit> list;
    for (const auto& edit : maybe) {
        if (!edit) {
            return {};
        }
        list << *edit;
    }
    return list;
}

}  // namespace

QStringList domainNames() {
    return {QStringLiteral("uniform"),     QStringLiteral("quniform"), QStringLiteral("loguniform"),
            QStringLiteral("qloguniform"), QStringLiteral("randint"),  QStringLiteral("qrandint"),
            QStringLiteral("lograndint"),  QStringLiteral("normal"),   QStringLiteral("qnormal"),
            QStringLiteral("choice"),      QStringLiteral("grid"),     kConstantDomain};
}

bool domainHasField(const QString& domain, ParameterField field) {
    if (field == ParameterField::Values) {
        return isList(domain) || domain == kConstantDomain;
    }
    return argumentIndex(domain, field) >= 0;
}

QString logScaleTwin(const QString& domain) {
    static const QList<std::pair<QString, QString>> twins{
        {QStringLiteral("uniform"), QStringLiteral("loguniform")},
        {QStringLiteral("quniform"), QStringLiteral("qloguniform")},
        {QStringLiteral("randint"), QStringLiteral("lograndint")}};
    for (const auto& [linear, log] : twins) {
        if (domain == linear || domain == log) {
            return domain == linear ? log : linear;
        }
    }
    return {};
}

bool isLogScale(const QString& domain) {
    return domain.startsWith(QLatin1String("log")) || domain.startsWith(QLatin1String("qlog"));
}

QString fieldText(const ParameterRow& row, ParameterField field) {
    if (field == ParameterField::Values) {
        return domainHasField(row.domain, field) ? row.arguments.join(QStringLiteral(", "))
                                                 : QString();
    }
    const int index = argumentIndex(row.domain, field);
    return index >= 0 ? row.arguments.value(index) : QString();
}

SearchSpaceRows readSearchSpace(const YamlText& yaml) {
    SearchSpaceRows space;
    if (yaml.kind({kSearchSpace}) == YamlText::Kind::Scalar) {
        space.externalFile = yaml.scalar({kSearchSpace});
    } else {
        readGroup(yaml, {kSearchSpace}, QString(), space.rows);
    }
    return space;
}

QList<TextEdit> fieldEdits(const YamlText& yaml, const ParameterRow& row, ParameterField field,
                           const QString& input) {
    const QString text = input.trimmed();
    const QStringList argumentPath = row.keyPath + QStringList{row.domain};
    if (field == ParameterField::Values && isList(row.domain)) {
        const YamlText list(flowList({text}));
        if (!list.isParsed() || list.kind({}) != YamlText::Kind::Sequence) {
            return {};
        }
        return edits({yaml.setValue(argumentPath, flowList({text}))});
    }
    if (field == ParameterField::Values && row.domain == kConstantDomain) {
        const YamlText value(text);
        const bool asWritten = value.isParsed() && (value.kind({}) == YamlText::Kind::Scalar ||
                                                    value.kind({}) == YamlText::Kind::Sequence);
        return edits({yaml.setValue(row.keyPath, asWritten ? text : yamlString(text))});
    }
    const int index = argumentIndex(row.domain, field);
    if (index < 0) {
        return {};
    }
    const QString value = looksLikeYamlNumber(text) ? text : yamlString(text, true);
    const QList<TextSpan> spans = yaml.itemSpans(argumentPath);
    if (spans.size() == argumentCount(row.domain)) {
        return {TextEdit{spans[index].start, spans[index].end, value}};
    }
    QStringList arguments = argumentsFor(ParameterRow{}, row.domain);  // defaults
    for (qsizetype i = 0; i < arguments.size() && i < row.arguments.size(); ++i) {
        arguments[i] = row.arguments[i];
    }
    arguments[index] = value;
    return edits({yaml.setValue(argumentPath, flowList(arguments))});
}

QList<TextEdit> domainEdits(const YamlText& yaml, const ParameterRow& row, const QString& domain) {
    if (domain == row.domain || !domainNames().contains(domain)) {
        return {};
    }
    const QStringList arguments = argumentsFor(row, domain);
    if (domain == kConstantDomain) {
        return edits({yaml.setValue(row.keyPath, arguments.value(0))});
    }
    const QString list = flowList(arguments);
    if (row.domain == kConstantDomain) {
        return edits({yaml.setValue(row.keyPath, QStringLiteral("{%1: %2}").arg(domain, list))});
    }
    const QStringList oldPath = row.keyPath + QStringList{row.domain};
    const TextSpan key = yaml.keySpan(oldPath);
    if (!key.isValid()) {
        return {};
    }
    if (arguments == row.arguments) {
        return {TextEdit{key.start, key.end, domain}};
    }
    return edits({TextEdit{key.start, key.end, domain}, yaml.setValue(oldPath, list)});
}

QList<TextEdit> logScaleEdits(const YamlText& yaml, const ParameterRow& row, bool logScale) {
    const QString twin = logScaleTwin(row.domain);
    if (twin.isEmpty() || isLogScale(row.domain) == logScale) {
        return {};
    }
    const TextSpan key = yaml.keySpan(row.keyPath + QStringList{row.domain});
    return key.isValid() ? QList<TextEdit>{TextEdit{key.start, key.end, twin}} : QList<TextEdit>{};
}

QList<TextEdit> renameEdits(const YamlText& yaml, const ParameterRow& row, const QString& name) {
    const QString trimmed = name.trimmed();
    const QStringList siblings = yaml.keys(row.keyPath.mid(0, row.keyPath.size() - 1));
    if (trimmed.isEmpty() || trimmed.contains(QLatin1Char('.')) || siblings.contains(trimmed)) {
        return {};
    }
    const TextSpan key = yaml.keySpan(row.keyPath);
    const bool flow = yaml.isFlow(row.keyPath.mid(0, row.keyPath.size() - 1));
    return key.isValid() ? QList<TextEdit>{TextEdit{key.start, key.end, yamlString(trimmed, flow)}}
                         : QList<TextEdit>{};
}

QList<TextEdit> addParameterEdits(const YamlText& yaml, const QString& name) {
    return edits({yaml.setValue({kSearchSpace, name}, QStringLiteral("{uniform: [0, 1]}"))});
}

QList<TextEdit> removeParameterEdits(const YamlText& yaml, const ParameterRow& row) {
    return edits({yaml.remove(row.keyPath)});
}

GridCount countGrid(const QList<ParameterRow>& rows, int numSamples) {
    constexpr qint64 kMax = std::numeric_limits<qint64>::max();
    GridCount count;
    for (const ParameterRow& row : rows) {
        if (row.domain == QLatin1String("grid")) {
            const qint64 size = std::max<qint64>(1, row.arguments.size());
            count.sizes << size;
            count.combinations =
                count.combinations > kMax / size ? kMax : count.combinations * size;
        }
    }
    const qint64 samples = std::max(0, numSamples);
    count.trials =
        samples && count.combinations > kMax / samples ? kMax : count.combinations * samples;
    return count;
}

}  // namespace tunedeck::app
