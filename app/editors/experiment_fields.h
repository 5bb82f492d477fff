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

// A key of a mapping with its value as the form shows it: a scalar's value, or a collection's
// YAML text as written (`{">=": 0.98}`); `block` when that text is a block collection, which
// spans lines and is edited in the YAML tab.
struct WrittenValue {
    QString key;
    QString text;
    bool block = false;
    bool operator==(const WrittenValue&) const = default;
};

// The mappings whose keys the form lists: the searcher's options (`search:` but `algorithm`),
// the scheduler's (`scheduler:` but `type`) and the stop criteria (`stop:`).
enum class OptionSection { Search, Scheduler, Stop };

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
    QList<WrittenValue> searchOptions;     // as written; the catalogue's defaults apply to the rest
    QList<WrittenValue> schedulerOptions;  // the same for the scheduler
    QList<WrittenValue> stop;              // the stop criteria, in the order written

    const QList<WrittenValue>& options(OptionSection section) const;

    // The field's value as fieldEdit takes it.
    QVariant value(FormField field) const;
};

ExperimentFields readExperimentFields(const YamlText& yaml);

// The edit that makes `field` hold `value`, or nullopt when the text cannot take it (it does not
// parse, or a key on the way holds something other than a mapping). An empty working_dir,
// metric or mode removes the key. A command is written as a list, one item per argument, so no
// quoting rules stand between what the form shows and what runs.
std::optional<TextEdit> fieldEdit(const YamlText& yaml, FormField field, const QVariant& value);

// The edit that sets `key` of `section` to `typed`, or removes the key (its default applies
// again) when `typed` is blank. `typed` is YAML as a user types it into a field: a number, true,
// false or a flow collection is written as such, anything else as a string. A searcher or
// scheduler written by name alone (`scheduler: asha`) becomes a mapping with the option beside
// the name. Nullopt when the text cannot take it.
std::optional<TextEdit> optionEdit(const YamlText& yaml, OptionSection section, const QString& key,
                                   const QString& typed);
// The edit that renames the stop criterion `from` to `to` (its key only; its value and comments
// stay), or removes it when `to` is blank. Nullopt when `to` is already a criterion.
std::optional<TextEdit> stopRenameEdit(const YamlText& yaml, const QString& from,
                                       const QString& to);
// `typed` as the YAML value optionEdit writes (`inFlow`: inside {...}).
QString typedYamlValue(const QString& typed, bool inFlow);

// A command string split into arguments by the engine's own splitter (config/command_line.h:
// blanks separate, '...' and "..." quote, backslash escapes; nothing expanded), so the form shows
// what the engine will run. Nullopt with `problem` set, translated, for an unterminated quote or a
// trailing backslash.
std::optional<QStringList> splitCommandWords(const QString& command, QString* problem);

}  // namespace tunedeck::app
