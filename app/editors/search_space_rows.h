// The search space as the table shows it: one row per parameter (nested groups as dotted
// names) with its domain and that domain's fields, read from the experiment's YAML text; the
// edits that change a field, a domain or a name in place; and the grid size as the engine
// counts it (SCHEMA.md: the grid parameters' values multiplied, times num_samples).
// Pure functions over YamlText; thread-safe.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

#include "editors/yaml_text.h"

namespace tunedeck::app {

// The table's value columns, in order.
enum class ParameterField { Low, High, Q, Mean, Sd, Values };

// Where a constant (a plain value or list passed to every trial) is shown: the domain column
// says this instead of a domain's name.
inline const QString kConstantDomain = QStringLiteral("constant");

struct ParameterRow {
    QString name;           // dotted: model.layers
    QStringList keyPath;    // in the file: search_space, model, layers
    QString domain;         // uniform, ..., grid, or kConstantDomain
    QStringList arguments;  // the domain's arguments (or a constant's value) as written
    QString condition;      // the `when`, as written
    // False for a choice whose options hold parameters of their own: those are edited as text.
    bool editable = true;
};

struct SearchSpaceRows {
    QList<ParameterRow> rows;
    QString externalFile;  // `search_space: space.json`: the space is in that file
};

// Domain names in SCHEMA.md's order, then kConstantDomain.
QStringList domainNames();
bool domainHasField(const QString& domain, ParameterField field);
// The log-scale twin of a domain (uniform <-> loguniform, ...), or empty when it has none.
QString logScaleTwin(const QString& domain);
bool isLogScale(const QString& domain);

// A field's text as the table shows it; empty when the domain has no such field.
QString fieldText(const ParameterRow& row, ParameterField field);

SearchSpaceRows readSearchSpace(const YamlText& yaml);

// Edits that change one parameter; empty when the value cannot be written (the text does not
// parse, or a list of values does not read as YAML).
QList<TextEdit> fieldEdits(const YamlText& yaml, const ParameterRow& row, ParameterField field,
                           const QString& text);
// Keeps what carries over (bounds, values), fills in the rest from the old fields or defaults.
QList<TextEdit> domainEdits(const YamlText& yaml, const ParameterRow& row, const QString& domain);
QList<TextEdit> logScaleEdits(const YamlText& yaml, const ParameterRow& row, bool logScale);
QList<TextEdit> renameEdits(const YamlText& yaml, const ParameterRow& row, const QString& name);
// A new parameter `name` (uniform over [0, 1]) at the end of the search space.
QList<TextEdit> addParameterEdits(const YamlText& yaml, const QString& name);
QList<TextEdit> removeParameterEdits(const YamlText& yaml, const ParameterRow& row);

struct GridCount {
    QList<qint64> sizes;  // values of each grid parameter, in written order
    qint64 combinations = 1;
    qint64 trials = 0;  // combinations * num_samples
};
// Grid parameters inside a choice's options are not rows and do not count: the engine sweeps
// only the grids outside choices.
GridCount countGrid(const QList<ParameterRow>& rows, int numSamples);

}  // namespace tunedeck::app
