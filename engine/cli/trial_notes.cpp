#include "cli/trial_notes.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <algorithm>
#include <memory>

#include "api/event_decoders.h"
#include "core/events.h"
#include "core/trial_note.h"
#include "runtime/experiment_lock.h"
#include "store/experiment_store.h"

namespace tunedeck::cli {

Status recordTrialNote(const QString& folder, const QString& trial, const QString& note) {
    if (Status s = checkTrialNote(note); !s) {
        return s;
    }
    const QString database = QDir(folder).filePath(QStringLiteral("experiment.sqlite"));
    if (!QFileInfo::exists(database)) {
        return Status::notFound(
            QStringLiteral("%1 is not a Tunedeck experiment folder (no experiment.sqlite)")
                .arg(folder));
    }
    // Held while the note is written: a `resume` of this folder waits for it, and a running
    // engine (which holds it) is left alone.
    ExperimentLock lock;
    if (Status s = lock.acquire(folder); !s) {
        return s;
    }
    std::unique_ptr<ExperimentStore> store;
    if (Status s = ExperimentStore::open(database, ExperimentStore::Mode::ReadWrite, &store); !s) {
        return s;
    }
    const std::vector<TrialRecord> trials = store->loadTrials();
    if (std::none_of(trials.begin(), trials.end(),
                     [&](const TrialRecord& t) { return t.trial.id == trial; })) {
        return Status::notFound(QStringLiteral("there is no trial '%1' in %2")
                                    .arg(trial.left(64), QFileInfo(folder).fileName()));
    }
    store->appendEvent(events::type::kTrialNote, trial, events::trialNote(trial, note),
                       double(QDateTime::currentMSecsSinceEpoch()) / 1000.0);
    return store->flush();
}

Status readTrialNotes(store::HistoryReader& reader, std::map<QString, QString>* out) {
    out->clear();
    std::vector<QJsonObject> payloads;
    const Status status = reader.readEvents(events::type::kTrialNote, &payloads);
    for (const QJsonObject& payload : payloads) {
        events::TrialNoteEvent note;  // read as the app reads it (api/event_decoders.h)
        if (!events::decodeTrialNote(payload, &note)) {
            continue;
        }
        if (note.note.isEmpty()) {
            out->erase(note.trial);
        } else {
            (*out)[note.trial] = note.note;
        }
    }
    return status;
}

}  // namespace tunedeck::cli
