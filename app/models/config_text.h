// A config value as the app shows it: a float as a float (1.0, not 1) where the engine said the
// number is one (TrialRow::configFloats), an integer as its digits, other numbers to six
// significant digits as the rest of the app prints them; strings as they are, booleans as
// true/false, lists and objects as compact JSON with their floats kept. Pure functions;
// thread-safe.
#pragma once

#include <QJsonValue>
#include <QString>

#include "core/config_json.h"
#include "models/experiment_data.h"

namespace tunedeck::app {

// `value` with `floats`, the paths of its float numbers relative to it ("" when the value is
// itself a float number).
QString configValueText(const QJsonValue& value, const FloatPaths& floats = {});
// The value of `row` at the flattened config key `key` (as configKeys() names them); empty when
// the trial has none.
QString configValueText(const TrialRow& row, const QString& key);
// Every flattened config key of `config` with its text, in key order ("lr: 1.0").
QStringList configLines(const QJsonObject& config, const FloatPaths& floats);

}  // namespace tunedeck::app
