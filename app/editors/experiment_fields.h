// The values the experiment form shows, read from the experiment's YAML text, and the edit that
// sets each one so that the rest of the text stays as written. Defaults are SCHEMA.md's.
// Pure functions over YamlText; thread-safe.
#pragma once

#include <QString>
#include <QStringList>
#include <QVariant>
#include <optional>

#include "editors/yaml_text.h"

namespace tunedeck::app {

enum class FormField {
    Name,
    Command,  // QStringList: one item per argument
    WorkingDir,
    Metric,  // QStringList: several for several objectives
    Mode,    // QStringList, one per metric
    NumSamples,
    MaxConcurrentTrials,
    SearchAlgorithm,
    SchedulerType,
    CheckpointFrequency,
    MaxFailures,
};

struct ExperimentFields {
    QString name;
    QStringList command;
    QString commandProblem;  // why a command string could not be split into arguments
    QString workingDir;
    QStringList metric;
    QStringList mode;
    int numSamples = 1;
    int maxConcurrentTrials = 0;
    QString searchAlgorithm = QStringLiteral("random");
    QString schedulerType = QStringLiteral("fifo");
    int checkpointFrequency = 0;
    int maxFailures = 0;

    // The field's value as fieldEdit takes it.
    QVariant value(FormField field) const;
};

ExperimentFields readExperimentFields(const YamlText& yaml);

// The edit that makes `field` hold `value`, or nullopt when the text cannot take it (it does not
// parse, or a key on the way holds something other than a mapping). An empty working_dir,
// metric or mode removes the key. A command is written as a list, one item per argument, so no
// quoting rules stand between what the form shows and what runs.
std::optional<TextEdit> fieldEdit(const YamlText& yaml, FormField field, const QVariant& value);

// A command string split into arguments by the engine's own splitter (config/command_line.h:
// blanks separate, '...' and "..." quote, backslash escapes; nothing expanded), so the form shows
// what the engine will run. Nullopt with `problem` set, translated, for an unterminated quote or a
// trailing backslash.
std::optional<QStringList> splitCommandWords(const QString& command, QString* problem);

}  // namespace tunedeck::app
