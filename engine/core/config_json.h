// Config values as text that keeps a float a float: `1.0` stays `1.0` on its way to the trial
// (TUNEDECK_CONFIG, {param} placeholders), into SQLite and out of `best`/`export`. Qt 6 cannot
// carry the difference itself (QJsonValue(1.0) is stored as the integer 1 and QJsonDocument
// writes it as `1`), so which numbers are floats travels beside the config as FloatPaths:
// known from the search space when a config is made, read back from the stored text later.
// Pure functions; thread-safe.
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QSet>
#include <QString>

namespace tunedeck {

struct SearchSpace;

// Dotted paths of the numbers of a value that are floats ("lr", "model.dropout"; list items by
// index, "sizes.0"; "" for a value that is itself a float number).
using FloatPaths = QSet<QString>;

// The float numbers of `config` as the space makes them: every value of a float domain
// (uniform, quniform, loguniform, qloguniform, normal, qnormal), and the numbers written with a
// point or an exponent (`1.0`, `1e-3`) in constants and in the choice or grid option the value
// is. Integer domains and numbers written as integers give integers.
FloatPaths floatPathsOf(const SearchSpace& space, const QJsonObject& config);

// The numbers written with a '.', 'e' or 'E' in JSON text (text QJsonDocument accepted).
FloatPaths floatPathsInJson(const QByteArray& text);

// `paths` below `prefix` ("" keeps them all), relative to it; and the other way round.
FloatPaths floatPathsBelow(const FloatPaths& paths, const QString& prefix);
FloatPaths floatPathsUnder(const FloatPaths& paths, const QString& prefix);

// JSON text of `value` in which the numbers at `floats` are written as floats (1.0, not 1).
// Indented output has the layout of QJsonDocument::Indented.
enum class JsonLayout { Compact, Indented };
QByteArray configJsonText(const QJsonValue& value, const FloatPaths& floats,
                          JsonLayout layout = JsonLayout::Compact);

// A number as the trial and the user see it: the shortest text that reads back the same
// double, with ".0" added to a whole float ("1.0", "0.001", "1e-05"); an integer as digits.
QString numberText(double value, bool isFloat);

}  // namespace tunedeck
