#include "cli/results_export.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <algorithm>
#include <charconv>

#include "cli/history_view.h"
#include "cli/output_formats.h"
#include "core/config_json.h"
#include "runtime/trial_command.h"
#include "store/stored_json.h"

namespace tunedeck::cli {

namespace {

QByteArray bytesOf(std::string_view text) {
    return QByteArray::fromRawData(text.data(), qsizetype(text.size()));
}

bool hasEscape(std::string_view text) {
    return text.find('\\') != std::string_view::npos;
}

// A CSV field: quoted when it holds a comma, a quote or a line break, its quotes doubled.
void appendCsvField(QByteArray& out, const QByteArray& text) {
    if (!text.contains(',') && !text.contains('"') && !text.contains('\n')) {
        out.append(text);
        return;
    }
    out.append('"');
    for (const char c : text) {
        out.append(c);
        if (c == '"') {
            out.append('"');
        }
    }
    out.append('"');
}

QByteArray valueText(const QJsonValue& value, const FloatPaths& floats = {}) {
    return formatConfigValue(value, floats).toUtf8();
}

// A key as the text spells it: escapes only a parser can read.
QByteArray keyOf(const store::JsonMember& member) {
    if (!hasEscape(member.key)) {
        return QByteArray(member.key.data(), qsizetype(member.key.size()));
    }
    store::JsonMember asString;
    asString.kind = store::JsonKind::String;
    asString.value = member.key;
    return store::jsonMemberValue(asString).toString().toUtf8();
}

// One result's value as formatConfigValue spells the parsed value: numbers, plain strings and
// literals straight from the text, the rest (escapes, objects, arrays) through the parser.
void appendMemberField(QByteArray& out, const store::JsonMember& member) {
    switch (member.kind) {
        case store::JsonKind::Number: {
            double value = 0;
            const char* end = member.value.data() + member.value.size();
            const auto [stop, code] = std::from_chars(member.value.data(), end, value);
            if (code == std::errc() && stop == end) {
                out.append(numberText(value, false).toUtf8());  // no comma in a number
                return;
            }
            break;  // out of a double's range: as the parser reads it
        }
        case store::JsonKind::String:
            if (!member.escaped) {
                appendCsvField(out, bytesOf(member.value));
                return;
            }
            break;
        case store::JsonKind::True:
            out.append("true");
            return;
        case store::JsonKind::False:
            out.append("false");
            return;
        case store::JsonKind::Null:
            out.append("null");
            return;
        case store::JsonKind::Object:
        case store::JsonKind::Array:
            break;
    }
    appendCsvField(out, valueText(store::jsonMemberValue(member)));
}

}  // namespace

QStringList flatConfigColumns(const std::vector<store::HistoryTrial>& trials,
                              std::vector<QJsonObject>* flat) {
    QStringList columns;
    QSet<QString> seen;
    flat->clear();
    flat->reserve(trials.size());
    for (const store::HistoryTrial& t : trials) {
        flat->push_back(flattenConfig(t.config));
        for (const QString& key : flat->back().keys()) {
            if (!seen.contains(key)) {
                seen.insert(key);
                columns << key;
            }
        }
    }
    return columns;
}

Status exportCsv(store::HistoryReader& reader, const std::vector<store::HistoryTrial>& trials,
                 const ExportExtras& extras, QByteArray* out) {
    // Config columns as config/<path> (Ray's dataframe layout), in the order trials add them;
    // each trial's config fields are written once and copied into each of its rows.
    std::vector<QJsonObject> flatConfigs;
    const QStringList configColumns = flatConfigColumns(trials, &flatConfigs);
    QHash<QByteArray, QByteArray> configFields;  // by trial id: ",a,b" for its config columns
    ColumnFloats columnFloats(configColumns);
    for (std::size_t i = 0; i < trials.size(); ++i) {
        QByteArray& fields = configFields[trials[i].id.toUtf8()];
        const std::vector<FloatPaths>& floats = columnFloats.below(trials[i].configFloats);
        for (qsizetype c = 0; c < configColumns.size(); ++c) {
            fields.append(',');
            appendCsvField(
                fields, valueText(flatConfigs[i].value(configColumns[c]), floats[std::size_t(c)]));
        }
    }
    const QByteArray noConfig(qsizetype(configColumns.size()), ',');  // a trial not listed

    // Every key any result has, sorted by their bytes (as SQLite sorts text), from one pass.
    QSet<QByteArray> keys;
    Status status = reader.readResults([&](const store::HistoryResult& result) {
        for (const store::JsonMember& member : *result.members) {
            if (!keys.contains(bytesOf(member.key)) || hasEscape(member.key)) {
                keys.insert(keyOf(member));
            }
        }
    });
    if (!status) {
        return status;
    }
    keys.remove(QByteArrayLiteral("trial_id"));
    std::vector<QByteArray> resultColumns(keys.begin(), keys.end());
    std::sort(resultColumns.begin(), resultColumns.end());
    QHash<QByteArray, std::size_t> columnOf;
    for (std::size_t i = 0; i < resultColumns.size(); ++i) {
        columnOf.insert(resultColumns[i], i);
    }

    QByteArray& text = *out;
    text = "trial_id";
    for (const QString& c : configColumns) {
        text += ",config/" + c.toUtf8();
    }
    for (const QByteArray& c : resultColumns) {
        text += ',' + c;
    }
    // The code version, one value for every row: "git:<commit>", "+dirty" when it was, or the
    // files' content hash.
    const QJsonObject& code = extras.codeVersion;
    QByteArray codeField;
    if (!code.isEmpty()) {
        text += ",code_version";
        appendCsvField(codeField, code.value("kind") == QLatin1String("git")
                                      ? "git:" + code.value("commit").toString().toUtf8() +
                                            (code.value("dirty").toBool() ? "+dirty" : "")
                                      : code.value("content_hash").toString().toUtf8());
    }
    QHash<QByteArray, QByteArray> noteFields;  // by trial id; "" for a trial without one
    if (!extras.notes.empty()) {               // the researchers' notes, when there are any
        text += ",note";
        for (const auto& [trial, note] : extras.notes) {
            appendCsvField(noteFields[trial.toUtf8()], note.toUtf8());
        }
    }
    text += '\n';

    std::vector<const store::JsonMember*> row(resultColumns.size());
    return reader.readResults([&](const store::HistoryResult& result) {
        const QByteArray trial = bytesOf(result.trialId);
        text.append(trial);
        const auto fields = configFields.constFind(trial);
        text.append(fields != configFields.constEnd() ? *fields : noConfig);
        std::fill(row.begin(), row.end(), nullptr);
        for (const store::JsonMember& member : *result.members) {
            const auto column = hasEscape(member.key) ? columnOf.constFind(keyOf(member))
                                                      : columnOf.constFind(bytesOf(member.key));
            if (column != columnOf.constEnd()) {
                row[*column] = &member;  // the last of a key written twice, as a parser keeps
            }
        }
        for (const store::JsonMember* member : row) {
            text.append(',');
            if (member) {
                appendMemberField(text, *member);
            }
        }
        if (!code.isEmpty()) {
            text.append(',');
            text.append(codeField);
        }
        if (!extras.notes.empty()) {
            text.append(',');
            text.append(noteFields.value(trial));
        }
        text.append('\n');
    });
}

Status exportJson(store::HistoryReader& reader, const std::vector<store::HistoryTrial>& trials,
                  const ExportExtras& extras, QByteArray* out) {
    // Node-based, so `current` stays valid as trials are added; results mostly come in runs of
    // one trial's, so most need no look-up.
    std::map<QByteArray, QJsonArray> byTrial;
    QJsonArray* current = nullptr;
    QByteArray currentId;
    Status status = reader.readResults([&](const store::HistoryResult& result) {
        if (!current || bytesOf(result.trialId) != currentId) {
            currentId = QByteArray(result.trialId.data(), qsizetype(result.trialId.size()));
            current = &byTrial[currentId];
        }
        current->append(QJsonDocument::fromJson(bytesOf(result.json)).object());
    });
    if (!status) {
        return status;
    }
    QJsonArray all;
    FloatPaths floats;  // the configs' floats, at "<index>.config.<path>"
    for (const store::HistoryTrial& t : trials) {
        floats.unite(floatPathsUnder(t.configFloats, QStringLiteral("%1.config").arg(all.size())));
        const auto results = byTrial.find(t.id.toUtf8());
        QJsonObject trial{{"trial_id", t.id},
                          {"status", trialStatusName(trialStatusOf(t))},
                          {"config", t.config},
                          {"results", results != byTrial.end() ? results->second : QJsonArray()}};
        if (!extras.codeVersion.isEmpty()) {
            trial.insert(QStringLiteral("code_version"), extras.codeVersion);
        }
        if (const auto note = extras.notes.find(t.id); note != extras.notes.end()) {
            trial.insert(QStringLiteral("note"), note->second);
        }
        all.append(trial);
    }
    *out = configJsonText(all, floats, JsonLayout::Indented);
    return Status::ok();
}

}  // namespace tunedeck::cli
