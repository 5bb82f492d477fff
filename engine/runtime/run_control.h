// `run --control-stdin`: the channel through which `tunedeck-engine serve` steers an experiment
// it started. Orders arrive on stdin as JSON lines (read and written by api/run_order.h), {"id": N,
// "op": OP, "trial": ID}, with OP one of stop_trial, pause_trial, resume_trial, stop (end the
// experiment early), pause (stop every trial so that `resume` continues them later, like Ctrl-C),
// set_max_workers, set_limits
// ({"num_samples": N, "max_concurrent_trials": M}, either or both), set_trial_note ({"trial":
// ID, "note": TEXT}) and, under `--shared-slots`, share
// ({"op": "share", "slots": N, "why": TEXT}: serve's fair queue lets N trials run at once; the
// experiment says what it runs and wants in {"control": {"demand": {"running", "wanted", "cpu",
// "gpu"}}} lines whenever that changes). Each order gets one answer on stdout,
// {"control": {"id": N, "ok": true}} or {"control": {"id": N, "ok": false, "error": TEXT}};
// a malformed line gets an answer naming its line number and the problem. The first line on
// stdout that starts with {"control" says where the experiment lives: {"control": {"started":
// {"experiment": NAME, "folder": DIR}}}. Other stdout lines are for people.
// When stdin ends (the server went away) the experiment runs on to its end.
// Thread-safety: lives on the runner's thread.
#pragma once

#include <QObject>
#include <QSocketNotifier>
#include <memory>

#include "api/run_order.h"
#include "core/line_framer.h"

namespace tunedeck {

class ExperimentRunner;

class RunControl : public QObject {
    Q_OBJECT
  public:
    RunControl(ExperimentRunner* runner, const QString& name, const QString& folder,
               QObject* parent = nullptr);

  private:
    void readOrders();
    void onLine(QByteArrayView line);
    static void answer(const QJsonObject& control);
    // What the order asks of the runner; why not, when it cannot.
    Status carryOut(const api::RunOrder& order);

    ExperimentRunner* runner_;
    std::unique_ptr<QSocketNotifier> notifier_;
    LineFramer framer_;
    int lineNumber_ = 0;
};

}  // namespace tunedeck
