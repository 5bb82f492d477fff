#include "session/experiment_session.h"

#include <QFileInfo>
#include <memory>

#include "config/spec_summary.h"
#include "models/history_reader.h"
#include "models/spec_choices.h"
#include "session/engine_connection.h"

namespace tunedeck::app {

ExperimentSession::ExperimentSession(EngineConnection* engine, QObject* parent)
    : QObject(parent),
      engine_(engine),
      table_(new TrialTableModel(&data_, this)),
      filter_(new TrialFilter(this)),
      picked_(this) {
    filter_->setSourceModel(table_);
    client::EngineClient& client = engine_->client();
    connect(&client, &client::EngineClient::decodedEvent, this, &ExperimentSession::onEvent);
    connect(&client, &client::EngineClient::subscribed, this, &ExperimentSession::onSubscribed);
    connect(&client, &client::EngineClient::caughtUp, this, [this](const QString& experiment) {
        caughtUp_ = caughtUp_ || (ofEngine_ && experiment == name_);
    });
    // Another engine: the same name there is another experiment.
    connect(engine_, &EngineConnection::detached, this, &ExperimentSession::close);
    connect(&picked_, &PickedMetricCurves::problem, this, &ExperimentSession::problem);
}

void ExperimentSession::begin(const QString& name, const QString& folder, bool ofEngine) {
    if (isOpen() && ofEngine_) {
        engine_->client().unsubscribe(name_);
    }
    history_.drop();  // a history still being read is of what was open before
    picked_.clear();
    name_ = name;
    folder_ = folder;
    ofEngine_ = ofEngine;
    caughtUp_ = !ofEngine;
    budget_ = {};
    data_.clear();
    usage_.clear();
    health_.clear();
    table_->reset();
    selection_.clear();
    emit opened();
    emit selectionChanged(selection_);
}

bool ExperimentSession::openOfEngine(const QString& name, bool justStarted) {
    if (name.isEmpty() || (!justStarted && name == name_ && ofEngine_)) {
        return false;
    }
    begin(name, engine_->folderOf(name), true);
    const QString local = engine_->resultsRoot() + '/' + name;
    if (!justStarted && !engine_->resultsRoot().isEmpty() &&
        QFileInfo(local + QStringLiteral("/experiment.sqlite")).isReadable()) {
        loadHistory(local, name);  // fast, then live from where it ends
    } else {
        // Just started (a few events yet), or a remote engine: everything over the connection;
        // the subscription's answer names the metric.
        engine_->client().subscribe(name, 0);
    }
    return true;
}

void ExperimentSession::openReadOnly(const QString& folder) {
    const QFileInfo info(folder);
    begin(info.fileName(), info.absoluteFilePath(), false);
    loadHistory(folder_, {});  // read-only: nothing more will come
}

void ExperimentSession::close() {
    begin({}, {}, false);
}

void ExperimentSession::setSelection(const QStringList& trialIds) {
    if (trialIds != selection_) {
        selection_ = trialIds;
        emit selectionChanged(selection_);
    }
}

void ExperimentSession::loadHistory(const QString& folder, const QString& name) {
    auto history = std::make_shared<History>();
    auto error = std::make_shared<QString>();
    // The nodes' samples, and each trial's share of them.
    struct UsageSamples {
        NodeUsageModel nodes;
        TrialHealthModel trials;
    };
    auto usage = std::make_shared<UsageSamples>();
    history_.start(
        this,
        [folder, history, usage, error] {
            if (readHistory(folder, history.get(), error.get())) {
                QString ignored;  // the samples are a view's extra; the trials are what matters
                readNodeUsage(
                    folder,
                    [&usage](events::Event&& event) {
                        usage->nodes.apply(event);
                        usage->trials.apply(event);
                    },
                    &ignored);
            }
        },
        [this, name, history, usage, error] {
            if (!error->isEmpty()) {
                emit problem(*error);
                if (!name.isEmpty()) {
                    engine_->client().subscribe(name, 0);
                }
                return;
            }
            data_.setObjective(history->metric, history->minimize);
            data_.setObjectives(history->objectives);
            budget_ = history->budget;
            data_.load(std::move(history->trials), std::move(history->exploits), history->status,
                       history->startTime);
            data_.setChoices(std::move(history->choices));
            table_->reset();
            usage_ = std::move(usage->nodes);
            health_ = std::move(usage->trials);
            emit loaded();
            if (!name.isEmpty()) {
                engine_->client().subscribe(name, history->lastSeq);
            }
        });
}

void ExperimentSession::onEvent(const QString& experiment, const events::Event& event) {
    // A read-only folder of the same name is another experiment than the engine's.
    if (!ofEngine_ || experiment != name_) {
        return;
    }
    picked_.apply(event);
    if (health_.apply(event)) {
        emit healthChanged();
    }
    if (usage_.apply(event)) {
        emit usageChanged();
        if (event.as<events::NodeUsageEvent>() != nullptr) {
            emit eventApplied(event);
            return;  // only the nodes' view shows samples; a node event goes to the log too
        }
    }
    data_.apply(event);
    if (const auto* limits = event.as<events::LimitsEvent>()) {
        applyLimits(*limits, &budget_);
        emit budgetChanged();
    }
    emit eventApplied(event);
    if (caughtUp_ && (event.as<events::ExperimentFinishedEvent>() != nullptr ||
                      event.as<events::ExperimentStartedEvent>() != nullptr)) {
        emit runStateChanged();
    }
}

void ExperimentSession::onSubscribed(const QString& experiment, const api::SubscribedAnswer& info) {
    if (!ofEngine_ || experiment != name_) {
        return;
    }
    if (!budget_.trials && !budget_.seconds) {
        budget_ = budgetOfSpec(info.spec, folder_);
        emit budgetChanged();
    }
    if (data_.choices().isEmpty()) {
        data_.setChoices(choicesOfSpec(info.spec, folder_));
    }
    if (!data_.trials().empty()) {
        return;  // a resubscription after a reconnect: the data is there
    }
    data_.setObjective(info.metric, info.minimize);
    if (const SpecSummary spec = summarizeSpec(info.spec); spec.isMultiObjective()) {
        data_.setObjectives(spec.objectives);
    }
    table_->reset();
    emit loaded();
}

}  // namespace tunedeck::app
