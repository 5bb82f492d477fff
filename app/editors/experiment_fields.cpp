#include "editors/experiment_fields.h"

#include <QCoreApplication>

#include "config/command_line.h"

namespace tunedeck::app {

namespace {

const QStringList kCommand{QStringLiteral("trainable"), QStringLiteral("command")};
const QStringList kWorkingDir{QStringLiteral("trainable"), QStringLiteral("working_dir")};

QStringList pathOf(FormField field) {
    switch (field) {
        case FormField::Name:
            return {QStringLiteral("name")};
        case FormField::Command:
            return kCommand;
        case FormField::WorkingDir:
            return kWorkingDir;
        case FormField::Metric:
            return {QStringLiteral("metric")};
        case FormField::Mode:
            return {QStringLiteral("mode")};
        case FormField::NumSamples:
            return {QStringLiteral("num_samples")};
        case FormField::MaxConcurrentTrials:
            return {QStringLiteral("max_concurrent_trials")};
        case FormField::SearchAlgorithm:
            return {QStringLiteral("search")};
        case FormField::SchedulerType:
            return {QStringLiteral("scheduler")};
        case FormField::CheckpointFrequency:
            return {QStringLiteral("checkpoint"), QStringLiteral("frequency")};
        case FormField::MaxFailures:
            return {QStringLiteral("failure"), QStringLiteral("max_failures")};
    }
    return {};
}

int intAt(const YamlText& yaml, const QStringList& path, int fallback) {
    bool ok = false;
    const int value = yaml.scalar(path).toInt(&ok);
    return ok ? value : fallback;
}

// A string or a list of strings (metric, mode).
QStringList stringsAt(const YamlText& yaml, const QStringList& path) {
    switch (yaml.kind(path)) {
        case YamlText::Kind::Scalar:
            return {yaml.scalar(path)};
        case YamlText::Kind::Sequence:
            return yaml.items(path);
        default:
            return {};
    }
}

// `search: tpe` is short for `search: {algorithm: tpe}`; the name sits in either place.
QStringList namePath(const YamlText& yaml, const QString& section, const QString& nameKey) {
    return yaml.kind({section}) == YamlText::Kind::Mapping ? QStringList{section, nameKey}
                                                           : QStringList{section};
}

QString listText(const QStringList& values) {
    QStringList items;
    for (const QString& value : values) {
        items << yamlString(value, true);
    }
    return QStringLiteral("[") + items.join(QStringLiteral(", ")) + QStringLiteral("]");
}

// A command list in the style it was written: [a, b] or one `- a` line per argument.
QString commandText(const YamlText& yaml, const QStringList& argv) {
    if (yaml.kind(kCommand) != YamlText::Kind::Sequence || yaml.isFlow(kCommand) ||
        argv.isEmpty()) {
        return listText(argv);
    }
    const TextSpan where = yaml.span(kCommand);
    const QString& text = yaml.text();
    const qsizetype lineStart = text.lastIndexOf(QLatin1Char('\n'), where.start - 1) + 1;
    const QString indent(where.start - lineStart, QLatin1Char(' '));
    QStringList lines;
    for (const QString& argument : argv) {
        lines << QStringLiteral("- ") + yamlString(argument);
    }
    return lines.join(QLatin1Char('\n') + indent);
}

// A string scalar for `path`, quoted as its mapping's style needs.
QString stringFor(const YamlText& yaml, const QStringList& path, const QString& value) {
    return yamlString(value, yaml.isFlow(path.mid(0, path.size() - 1)));
}

QString sectionKey(OptionSection section) {
    switch (section) {
        case OptionSection::Search:
            return QStringLiteral("search");
        case OptionSection::Scheduler:
            return QStringLiteral("scheduler");
        case OptionSection::Stop:
            return QStringLiteral("stop");
    }
    return {};
}

// The key naming the algorithm inside its section; empty for `stop`.
QString nameKeyOf(OptionSection section) {
    switch (section) {
        case OptionSection::Search:
            return QStringLiteral("algorithm");
        case OptionSection::Scheduler:
            return QStringLiteral("type");
        case OptionSection::Stop:
            break;
    }
    return {};
}

QList<WrittenValue> writtenValues(const YamlText& yaml, OptionSection section) {
    const QStringList at{sectionKey(section)};
    QList<WrittenValue> values;
    if (yaml.kind(at) != YamlText::Kind::Mapping) {
        return values;
    }
    for (const QString& key : yaml.keys(at)) {
        if (key == nameKeyOf(section)) {
            continue;
        }
        const QStringList path = at + QStringList{key};
        WrittenValue value{key, {}, false};
        switch (yaml.kind(path)) {
            case YamlText::Kind::Scalar:
                value.text = yaml.scalar(path);
                break;
            case YamlText::Kind::Sequence:
            case YamlText::Kind::Mapping:
                value.text = yaml.source(yaml.span(path)).trimmed();
                value.block = !yaml.isFlow(path);
                break;
            default:
                break;
        }
        values << value;
    }
    return values;
}

}  // namespace

const QList<WrittenValue>& ExperimentFields::options(OptionSection section) const {
    switch (section) {
        case OptionSection::Search:
            return searchOptions;
        case OptionSection::Scheduler:
            return schedulerOptions;
        case OptionSection::Stop:
            break;
    }
    return stop;
}

QVariant ExperimentFields::value(FormField field) const {
    switch (field) {
        case FormField::Name:
            return name;
        case FormField::Command:
            return command;
        case FormField::WorkingDir:
            return workingDir;
        case FormField::Metric:
            return metric;
        case FormField::Mode:
            return mode;
        case FormField::NumSamples:
            return numSamples;
        case FormField::MaxConcurrentTrials:
            return maxConcurrentTrials;
        case FormField::SearchAlgorithm:
            return searchAlgorithm;
        case FormField::SchedulerType:
            return schedulerType;
        case FormField::CheckpointFrequency:
            return checkpointFrequency;
        case FormField::MaxFailures:
            return maxFailures;
    }
    return {};
}

ExperimentFields readExperimentFields(const YamlText& yaml) {
    ExperimentFields fields;
    fields.name = yaml.scalar({QStringLiteral("name")});
    if (yaml.kind(kCommand) == YamlText::Kind::Sequence) {
        fields.command = yaml.items(kCommand);
    } else if (yaml.kind(kCommand) == YamlText::Kind::Scalar) {
        const QString line = yaml.scalar(kCommand);
        if (auto words = splitCommandWords(line, &fields.commandProblem)) {
            fields.command = *words;
        } else {
            fields.command = {line};
        }
    }
    fields.workingDir = yaml.scalar(kWorkingDir);
    fields.metric = stringsAt(yaml, pathOf(FormField::Metric));
    fields.mode = stringsAt(yaml, pathOf(FormField::Mode));
    fields.numSamples = intAt(yaml, pathOf(FormField::NumSamples), fields.numSamples);
    fields.maxConcurrentTrials =
        intAt(yaml, pathOf(FormField::MaxConcurrentTrials), fields.maxConcurrentTrials);
    const QString search =
        yaml.scalar(namePath(yaml, QStringLiteral("search"), QStringLiteral("algorithm")));
    fields.searchAlgorithm = search.isEmpty() ? fields.searchAlgorithm : search;
    const QString scheduler =
        yaml.scalar(namePath(yaml, QStringLiteral("scheduler"), QStringLiteral("type")));
    fields.schedulerType = scheduler.isEmpty() ? fields.schedulerType : scheduler;
    fields.checkpointFrequency =
        intAt(yaml, pathOf(FormField::CheckpointFrequency), fields.checkpointFrequency);
    fields.maxFailures = intAt(yaml, pathOf(FormField::MaxFailures), fields.maxFailures);
    fields.searchOptions = writtenValues(yaml, OptionSection::Search);
    fields.schedulerOptions = writtenValues(yaml, OptionSection::Scheduler);
    fields.stop = writtenValues(yaml, OptionSection::Stop);
    return fields;
}

QString typedYamlValue(const QString& typed, bool inFlow) {
    const QString text = typed.trimmed();
    static const QStringList kWords{QStringLiteral("true"), QStringLiteral("false"),
                                    QStringLiteral("null")};
    if (looksLikeYamlNumber(text) || kWords.contains(text)) {
        return text;
    }
    if (text.startsWith(QLatin1Char('{')) || text.startsWith(QLatin1Char('['))) {
        const YamlText probe(QStringLiteral("v: ") + text);
        const YamlText::Kind kind = probe.kind({QStringLiteral("v")});
        if (probe.isParsed() &&
            (kind == YamlText::Kind::Mapping || kind == YamlText::Kind::Sequence) &&
            !text.contains(QLatin1Char('\n'))) {
            return text;
        }
    }
    return yamlString(text, inFlow);
}

std::optional<TextEdit> optionEdit(const YamlText& yaml, OptionSection section, const QString& key,
                                   const QString& typed) {
    const QString name = sectionKey(section);
    const QStringList path{name, key};
    if (typed.trimmed().isEmpty()) {
        return yaml.kind(path) == YamlText::Kind::Missing ? std::nullopt : yaml.remove(path);
    }
    if (section != OptionSection::Stop && yaml.kind({name}) == YamlText::Kind::Scalar) {
        // `scheduler: asha` is short for {type: asha}: the option goes beside the name.
        return yaml.setValue({name},
                             QStringLiteral("{%1: %2, %3: %4}")
                                 .arg(nameKeyOf(section), yamlString(yaml.scalar({name}), true),
                                      yamlString(key, true), typedYamlValue(typed, true)));
    }
    return yaml.setValue(path, typedYamlValue(typed, yaml.isFlow({name})));
}

std::optional<TextEdit> stopRenameEdit(const YamlText& yaml, const QString& from,
                                       const QString& to) {
    const QString stop = sectionKey(OptionSection::Stop);
    const QString name = to.trimmed();
    if (name.isEmpty()) {
        return yaml.remove({stop, from});
    }
    if (name == from) {
        return std::nullopt;
    }
    if (yaml.kind({stop, name}) != YamlText::Kind::Missing) {
        return std::nullopt;
    }
    const TextSpan at = yaml.keySpan({stop, from});
    if (!at.isValid()) {
        return std::nullopt;
    }
    return TextEdit{at.start, at.end, yamlString(name, yaml.isFlow({stop}))};
}

std::optional<TextEdit> fieldEdit(const YamlText& yaml, FormField field, const QVariant& value) {
    QStringList path = pathOf(field);
    switch (field) {
        case FormField::Name:
            return yaml.setValue(path, stringFor(yaml, path, value.toString()));
        case FormField::Command:
            return yaml.setValue(path, commandText(yaml, value.toStringList()));
        case FormField::WorkingDir:
            if (value.toString().isEmpty()) {
                return yaml.remove(path);
            }
            return yaml.setValue(path, stringFor(yaml, path, value.toString()));
        case FormField::Metric:
        case FormField::Mode: {
            const QStringList values = value.toStringList();
            if (values.isEmpty()) {
                return yaml.remove(path);
            }
            return yaml.setValue(
                path, values.size() == 1 ? stringFor(yaml, path, values[0]) : listText(values));
        }
        case FormField::SearchAlgorithm:
            path = namePath(yaml, path[0], QStringLiteral("algorithm"));
            return yaml.setValue(path, stringFor(yaml, path, value.toString()));
        case FormField::SchedulerType:
            path = namePath(yaml, path[0], QStringLiteral("type"));
            return yaml.setValue(path, stringFor(yaml, path, value.toString()));
        case FormField::NumSamples:
        case FormField::MaxConcurrentTrials:
        case FormField::CheckpointFrequency:
        case FormField::MaxFailures:
            return yaml.setValue(path, QString::number(value.toInt()));
    }
    return std::nullopt;
}

std::optional<QStringList> splitCommandWords(const QString& command, QString* problem) {
    CommandLineProblem why = CommandLineProblem::LoneBackslash;
    std::optional<QStringList> words = splitCommandLine(command, &why);  // the engine's rules
    if (!words) {
        switch (why) {
            case CommandLineProblem::LoneBackslash:
                *problem = QCoreApplication::translate("ExperimentFields",
                                                       "the command ends with a lone backslash");
                break;
            case CommandLineProblem::UnterminatedSingleQuote:
                *problem = QCoreApplication::translate("ExperimentFields",
                                                       "the command has an unterminated ' quote");
                break;
            case CommandLineProblem::UnterminatedDoubleQuote:
                *problem = QCoreApplication::translate("ExperimentFields",
                                                       "the command has an unterminated \" quote");
                break;
        }
    }
    return words;
}

}  // namespace tunedeck::app
