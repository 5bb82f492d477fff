// The orders `tunedeck-engine serve` gives an experiment it started (`run --control-stdin`), one
// JSON line each on the run's stdin: {"id": N, "op": OP, ...}. The server reads a client's
// request into a RunOrder (refusing it there, naming the field, when it is malformed) and writes
// it with runOrderLine; the run reads the line back with readRunOrder. Both sides use these
// functions, so neither reads a field by hand. RunControl (runtime/run_control.h) has the list
// of ops. Pure functions; thread-safe.
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <optional>

#include "core/experiment_limits.h"

namespace tunedeck::api {

struct RunOrder {
    enum class Op {
        StopTrial,
        PauseTrial,
        ResumeTrial,
        Stop,   // end the experiment early
        Pause,  // stop every trial so that `resume` continues them (Ctrl-C)
        SetMaxWorkers,
        SetLimits,
        SetTrialNote,
        Share,  // serve's fair queue: how many trials may run at once
    };

    Op op = Op::Stop;
    qint64 id = 0;        // the server's number for the order, echoed in the run's answer
    QString trial;        // the *_trial ops and set_trial_note
    QString nodeType;     // set_max_workers (empty: the cluster's only type)
    int maxWorkers = 0;   // set_max_workers
    LimitsChange limits;  // set_limits
    QString note;         // set_trial_note (empty: no note)
    int granted = 0;      // share: the "slots" serve grants
    QString why;          // share: shown on the trials that wait
};

// The order in `fields` (a control request or a line of the run's stdin); nothing when it is
// malformed, with `problem` naming the field and what it must be ("set_max_workers needs
// \"max_workers\", a whole number from 0"). `fields`' "id" is not read: the caller numbers it.
std::optional<RunOrder> readRunOrder(const QJsonObject& fields, QString* problem);

// The server's number of the order on a line of the run's stdin (0 when it has none).
qint64 runOrderId(const QJsonObject& fields);

// The line the run reads (newline included).
QByteArray runOrderLine(const RunOrder& order);

}  // namespace tunedeck::api
