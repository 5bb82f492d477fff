// `export`'s two layouts of a history, both from one pass over its results through the history
// reader: CSV, one row per result in Ray's dataframe layout (trial_id, config/<path> columns,
// the results' keys sorted, code_version, note), and JSON, one object per trial holding its
// results. The CSV rows are written from each result's stored text in place
// (store/stored_json.h), with the values spelled as a parsed result would spell them
// (formatConfigValue). Main thread only.
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <map>
#include <vector>

#include "core/status.h"
#include "store/history_reader.h"

namespace tunedeck::cli {

// What every row or trial of the export carries beside its results.
struct ExportExtras {
    QJsonObject codeVersion;           // cli/code_version.h; empty when none was recorded
    std::map<QString, QString> notes;  // by trial id (cli/trial_notes.h)
};

// Each trial's config flattened to dotted paths (`flat`, in the order of `trials`), and the
// paths as columns in the order the trials add them (`show`'s table and the CSV share them).
QStringList flatConfigColumns(const std::vector<store::HistoryTrial>& trials,
                              std::vector<QJsonObject>* flat);

Status exportCsv(store::HistoryReader& reader, const std::vector<store::HistoryTrial>& trials,
                 const ExportExtras& extras, QByteArray* out);
Status exportJson(store::HistoryReader& reader, const std::vector<store::HistoryTrial>& trials,
                  const ExportExtras& extras, QByteArray* out);

}  // namespace tunedeck::cli
