// The desktop app under load, against a fake engine process that speaks the control API
// (a real socket, the real wire format): 1,000 trials streaming 5,000 results a second, then a
// finished experiment of 1,000 trials and 1,000,000 results opened from scratch. Prints the GUI
// thread's event-loop lag, chart redraws per second, resident memory, and the time to show the
// history, each beside its reference measured in the same run (the idle window's lag; the
// client alone receiving the same replay; the metric read by SQLite's json_extract, as the
// reader did before). `--smoke`: 5 s and 100,000 results, for ctest. `--only=live` or
// `--only=history` runs one part; `--spin` waits as the first version of this bench did (see
// `spin`); `--seconds=N` streams for N seconds; `--stalls` prints when each stall over 50 ms
// happened; `--read FOLDER` only reads a history, for a profiler; `--view=timeline` or
// `--view=history` streams with that study plot shown instead of the curves.
#include <sqlite3.h>
#include <sys/resource.h>
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QTableView>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <ctime>

#include "api/control_server.h"
#include "charts/metric_chart.h"
#include "client/engine_client.h"
#include "core/events.h"
#include "models/experiment_data.h"
#include "models/history_reader.h"
#include "plots/optimization_history_view.h"
#include "plots/study_plots.h"
#include "plots/timeline_view.h"
#include "store/experiment_store.h"
#include "views/main_window.h"
#include "written_history.h"

using namespace tunedeck;

namespace {

// ---- the fake engine (a child process: its memory and CPU are not the app's) ----

// Shows the tab the stream is watched in: the curves (the window's first tab), or one of the
// study plots, which then recompute as results arrive.
bool showView(app::MainWindow& window, const QString& view) {
    if (view == QLatin1String("curves")) {
        return true;
    }
    auto* plots = window.findChild<app::StudyPlots*>();
    if (plots == nullptr ||
        (view != QLatin1String("timeline") && view != QLatin1String("history"))) {
        return false;
    }
    window.tabs()->setCurrentWidget(plots);
    if (view == QLatin1String("timeline")) {
        plots->setCurrentWidget(plots->timelineView());
    } else {
        plots->setCurrentWidget(plots->history());
    }
    return true;
}

int fakeEngine(const QString& socket, int trials, int rate, int historyIterations) {
    qint64 seq = 0;
    std::vector<QPointer<api::ControlConnection>> live;
    std::vector<int> iteration(std::size_t(trials), 0);
    auto send = [&](api::ControlConnection& c, const QString& type, QJsonObject payload) {
        ++seq;
        c.send(api::eventMessage(
            1, "fake", events::envelope(type, seq, 1e9 + double(seq) * 1e-4, std::move(payload))));
    };
    auto resultPayload = [&](int t, int it) {
        const double score = 1.0 - 1.0 / (1 + it * (1 + t % 7)) + (it % 97 == 0 ? 0.5 : 0);
        return events::result(QStringLiteral("t%1").arg(t, 5, 10, QLatin1Char('0')),
                              QJsonObject{{"training_iteration", it}, {"score", score}});
    };
    api::ControlServer server([&](api::ControlConnection& c, const api::Request& r) {
        if (r.op == api::op::kHello) {  // as serve answers it: the client checks the versions
            c.send(api::answerOk(
                r.id, {{"api", api::kControlApiVersion}, {"events", events::kEventSchemaVersion}}));
            return;
        }
        if (r.op != api::op::kSubscribe) {
            c.send(api::answerOk(r.id, {{"experiments", QJsonArray{}}}));
            return;
        }
        c.send(api::answerOk(
            r.id,
            {{"subscription", 1}, {"metric", "score"}, {"mode", "max"}, {"status", "running"}}));
        for (int t = 0; t < trials; ++t) {
            const QString id = QStringLiteral("t%1").arg(t, 5, 10, QLatin1Char('0'));
            send(c, events::type::kTrialAdded,
                 {{"trial", id}, {"config", QJsonObject{{"lr", 0.001 * (t + 1)}, {"width", t}}}});
            send(c, events::type::kTrialStatus,
                 {{"trial", id}, {"status", "RUNNING"}, {"node", "local"}});
        }
        // A finished history: every result at once, as fast as the socket takes it.
        for (int it = 1; it <= historyIterations; ++it) {
            for (int t = 0; t < trials; ++t) {
                send(c, events::type::kResult, resultPayload(t, it));
            }
            while (c.backlog() > 64 * 1024 * 1024) {
                QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
            }
        }
        c.send(api::caughtUpMessage(1, "fake", seq));
        live.push_back(&c);
    });
    api::ListenAddress address;
    address.path = socket;
    if (!server.listen(address, QString())) {
        return 1;
    }
    // Live results: `rate` a second, round robin over the trials, in 100 ticks a second.
    QTimer tick;
    int next = 0;
    QObject::connect(&tick, &QTimer::timeout, [&] {
        for (auto& c : live) {
            if (!c || historyIterations > 0) {
                continue;
            }
            for (int i = 0; i < rate / 100; ++i) {
                const int t = next++ % trials;
                send(*c, events::type::kResult, resultPayload(t, ++iteration[std::size_t(t)]));
            }
        }
    });
    tick.start(10);
    return QCoreApplication::exec();
}

// A finished history of `trials` x `iterations` results, written by the engine's own store.
bool writeHistory(const QString& folder, int trials, int iterations) {
    bench::HistoryShape shape;
    shape.specText = QStringLiteral("name: history\nmetric: score\nmode: max\n");
    shape.config = [](int t) { return QJsonObject{{"lr", 0.001 * (t + 1)}, {"width", t}}; };
    shape.metrics = [](int t, int it) {
        const double score = 1.0 - 1.0 / (1 + it * (1 + t % 7)) + (it % 97 == 0 ? 0.5 : 0);
        return QJsonObject{{"score", score}};
    };
    return bench::writeHistory(folder, trials, iterations, shape);
}

// ---- measurements on the app's side ----

long residentKb() {
    QFile status(QStringLiteral("/proc/self/status"));
    status.open(QIODevice::ReadOnly);
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:")) {
            return line.mid(6).trimmed().split(' ').first().toLong();
        }
    }
    return 0;
}

// Measures how late a 5 ms timer fires on this thread while `run` events for `ms`.
struct Lag {
    std::vector<double> samples;
    // Per sample, the CPU time the GUI thread used meanwhile: a stall with little of it was
    // the machine running other threads and processes, not the app's own work.
    std::vector<double> cpu;
    int busyOver(double ms) const {
        return int(std::count_if(cpu.begin(), cpu.end(), [ms](double v) { return v > ms; }));
    }
    double maxCpu() const { return cpu.empty() ? 0 : *std::max_element(cpu.begin(), cpu.end()); }
    double max() const {
        return samples.empty() ? 0 : *std::max_element(samples.begin(), samples.end());
    }
    double percentile(double p) const {
        if (samples.empty()) {
            return 0;
        }
        std::vector<double> s = samples;
        std::sort(s.begin(), s.end());
        return s[std::size_t(p * double(s.size() - 1))];
    }
    int over(double ms) const {
        return int(
            std::count_if(samples.begin(), samples.end(), [ms](double v) { return v > ms; }));
    }
};

// How the bench waits. As the app does: blocked in the event loop until something happens. Or,
// with --spin, calling processEvents() in a loop as the bench's first version did: that keeps one
// core busy and so slows every other thread of a small machine (the history reader, the curve
// renderer); kept to compare with figures measured that way.
bool spin = false;
// --stalls: prints each stall over 50 ms with its CLOCK_MONOTONIC span, to find it in a profile
// recorded with `perf record -k CLOCK_MONOTONIC`.
bool printStalls = false;

// The GUI thread's context switches so far: involuntary ones (another thread or process was
// given its CPU), and voluntary ones (it waited: for events, or a lock).
std::pair<long, long> switches() {
    rusage usage{};
    getrusage(RUSAGE_THREAD, &usage);
    return {usage.ru_nivcsw, usage.ru_nvcsw};
}

double threadCpuMs() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return double(now.tv_sec) * 1e3 + double(now.tv_nsec) / 1e6;
}

double monotonicSeconds() {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return double(now.tv_sec) + double(now.tv_nsec) / 1e9;
}

// Runs the event loop for `ms` or until `done` holds, measuring how late a 5 ms timer fires.
Lag measureLag(int ms, const std::function<void()>& everySecond = {},
               const std::function<bool()>& done = {}) {
    Lag lag;
    QElapsedTimer clock;
    clock.start();
    QElapsedTimer since;
    since.start();
    QEventLoop loop;
    qint64 lastSecond = 0;
    double cpuBefore = threadCpuMs();
    std::pair<long, long> switchedBefore = switches();
    auto finished = [&] {
        if (everySecond && clock.elapsed() / 1000 != lastSecond) {
            lastSecond = clock.elapsed() / 1000;
            everySecond();
        }
        return clock.elapsed() >= ms || (done && done());
    };
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    QObject::connect(&probe, &QTimer::timeout, [&] {
        lag.samples.push_back(std::max(0.0, double(since.nsecsElapsed()) / 1e6 - 5.0));
        const double cpu = threadCpuMs();
        lag.cpu.push_back(cpu - cpuBefore);
        cpuBefore = cpu;
        const std::pair<long, long> switched = switches();
        if (printStalls && lag.samples.back() > 50) {
            const double now = monotonicSeconds();
            std::printf(
                "  stall %.1f ms (GUI thread on a CPU %.1f ms of it; %ld times preempted, %ld "
                "times waited): %.6f to %.6f\n",
                lag.samples.back(), lag.cpu.back(), switched.first - switchedBefore.first,
                switched.second - switchedBefore.second, now - double(since.nsecsElapsed()) / 1e9,
                now);
        }
        switchedBefore = switched;
        since.restart();
        if (!spin && finished()) {
            loop.quit();
        }
    });
    probe.start(5);
    if (spin) {
        while (!finished()) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        }
    } else {
        loop.exec();
    }
    return lag;
}

std::unique_ptr<QProcess> startFake(const QString& socket, int trials, int rate, int history) {
    auto process = std::make_unique<QProcess>();
    process->setProcessChannelMode(QProcess::ForwardedChannels);
    process->start(QCoreApplication::applicationFilePath(),
                   {"--fake-engine", socket, QString::number(trials), QString::number(rate),
                    QString::number(history)});
    process->waitForStarted();
    QElapsedTimer wait;
    wait.start();
    while (!QFile::exists(socket) && wait.elapsed() < 10000) {
        QThread::msleep(20);
    }
    return process;
}

// The same history with its results in the order a live run writes them: every trial's
// iteration i before any trial's i + 1 (writeHistory writes one trial after the other).
bool interleave(const QString& from, const QString& to) {
    QDir().mkpath(to);
    QFile::remove(to + "/experiment.sqlite");
    if (!QFile::copy(from + "/experiment.sqlite", to + "/experiment.sqlite")) {
        return false;
    }
    sqlite3* db = nullptr;
    const QByteArray path = QFile::encodeName(to + "/experiment.sqlite");
    bool ok = sqlite3_open(path.constData(), &db) == SQLITE_OK &&
              sqlite3_exec(db,
                           "BEGIN;"
                           "CREATE TEMP TABLE r AS SELECT trial_id, iteration, timestamp, data "
                           "FROM results;"
                           "DELETE FROM results;"
                           "INSERT INTO results (seq, trial_id, iteration, timestamp, data) "
                           "SELECT row_number() OVER (ORDER BY iteration, trial_id), trial_id, "
                           "iteration, timestamp, data FROM r;"
                           "COMMIT;",
                           nullptr, nullptr, nullptr) == SQLITE_OK;
    sqlite3_close(db);
    return ok;
}

// The reference for the read: the metric of every result pulled out by SQLite's json_extract,
// the query the reader ran before it scanned the results' text itself. Milliseconds.
double readWithJsonExtract(const QString& folder, qint64* rows) {
    sqlite3* db = nullptr;
    const QByteArray path = QFile::encodeName(folder + "/experiment.sqlite");
    QElapsedTimer clock;
    clock.start();
    sqlite3_open_v2(path.constData(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* s = nullptr;
    sqlite3_prepare_v2(db,
                       "SELECT trial_id, iteration, timestamp, json_extract(data, '$.\"' || ?1 "
                       "|| '\"') FROM results ORDER BY seq",
                       -1, &s, nullptr);
    sqlite3_bind_text(s, 1, "score", -1, SQLITE_STATIC);
    double sum = 0;
    *rows = 0;
    while (sqlite3_step(s) == SQLITE_ROW) {
        sum += sqlite3_column_double(s, 3);
        ++*rows;
    }
    sqlite3_finalize(s);
    sqlite3_close(db);
    return sum > -1 ? double(clock.nsecsElapsed()) / 1e6 : 0;
}

struct Opened {
    double ms = 0;
    double dataMs = 0;   // the read handed to the window
    double tableMs = 0;  // every trial in the table
    double curvesMs = 0;
    double longestStall = 0;
    int stallsOver50 = 0;
    double longestBusy = 0;  // the GUI thread's own CPU time between two samples
    int points = 0;
    double residentMb = 0;
};

// Opens `folder` in a new window and waits until the table has every trial and the curves show
// every result.
Opened openInWindow(const QString& folder, int trials, qint64 total) {
    Opened opened;
    app::MainWindow window;
    window.resize(1600, 1000);
    window.show();
    auto* table = window.findChild<QTableView*>(QStringLiteral("trials"));
    QElapsedTimer clock;
    clock.start();
    window.openFolder(folder);
    auto mark = [&](double* at, bool reached) {
        if (*at == 0 && reached) {
            *at = double(clock.nsecsElapsed()) / 1e6;
        }
    };
    const Lag lag = measureLag(120000, {}, [&] {
        mark(&opened.dataMs, !window.data().trials().empty());
        mark(&opened.tableMs, table->model()->rowCount() >= trials);
        mark(&opened.curvesMs, window.chart()->shownResults() >= std::size_t(total));
        return table->model()->rowCount() >= trials &&
               window.chart()->shownResults() >= std::size_t(total);
    });
    QCoreApplication::processEvents();  // the frame that paints them
    opened.ms = double(clock.nsecsElapsed()) / 1e6;
    opened.longestStall = lag.max();
    opened.stallsOver50 = lag.over(50);
    opened.longestBusy = lag.maxCpu();
    opened.points = window.chart()->redraw();
    opened.residentMb = double(residentKb()) / 1024.0;
    return opened;
}

}  // namespace

int main(int argc, char** argv) {
    const QStringList args = [&] {
        QStringList list;
        for (int i = 1; i < argc; ++i) {
            list << QString::fromLocal8Bit(argv[i]);
        }
        return list;
    }();
    if (args.value(0) == QLatin1String("--read")) {  // for a profiler: one history, read once
        QCoreApplication app(argc, argv);
        QElapsedTimer clock;
        clock.start();
        app::History read;
        QString error;
        const bool ok = app::readHistory(args.value(1), &read, &error);
        std::printf("%s: %lld results in %.0f ms %s\n", qPrintable(args.value(1)),
                    static_cast<long long>(read.results), double(clock.nsecsElapsed()) / 1e6,
                    qPrintable(error));
        return ok ? 0 : 1;
    }
    if (args.value(0) == QLatin1String("--fake-engine")) {
        QCoreApplication app(argc, argv);
        return fakeEngine(args.value(1), args.value(2).toInt(), args.value(3).toInt(),
                          args.value(4).toInt());
    }
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const bool smoke = args.contains(QStringLiteral("--smoke"));
    spin = args.contains(QStringLiteral("--spin"));
    printStalls = args.contains(QStringLiteral("--stalls"));
    const bool live = !args.contains(QStringLiteral("--only=history"));
    const bool history = !args.contains(QStringLiteral("--only=live"));
    const int trials = 1000;
    const int rate = 5000;
    int streamMs = smoke ? 5000 : 120000;
    QString view = QStringLiteral("curves");
    for (const QString& arg : args) {
        if (arg.startsWith(QLatin1String("--seconds="))) {  // a shorter or longer stream
            streamMs = arg.mid(10).toInt() * 1000;
        } else if (arg.startsWith(QLatin1String("--view="))) {
            view = arg.mid(7);
        }
    }
    const int historyIterations = smoke ? 100 : 1000;
    QTemporaryDir dir;

    std::printf("Tunedeck app under load (offscreen platform, fake engine process)%s%s\n\n",
                smoke ? " [smoke]" : "",
                spin ? " [--spin: the bench polls processEvents() in a loop]" : "");
    // 1. Live: 1,000 trials, 5,000 results a second.
    if (live) {
        const QString socket = dir.filePath("live.sock");
        auto fake = startFake(socket, trials, rate, 0);
        app::MainWindow window;
        window.resize(1600, 1000);
        window.show();
        window.attachLocal(socket, {});
        measureLag(1000);
        const Lag idle = measureLag(smoke ? 2000 : 10000);  // attached, nothing streaming yet
        window.openExperiment(QStringLiteral("fake"));
        if (!showView(window, view)) {
            std::fprintf(stderr, "no view %s (curves, timeline, history)\n", qPrintable(view));
            return 2;
        }
        const int redrawsBefore = window.chart()->redrawCount();
        long peakKb = 0;
        const Lag streaming =
            measureLag(streamMs, [&] { peakKb = std::max(peakKb, residentKb()); });
        const double seconds = streamMs / 1000.0;
        const double redrawRate = (window.chart()->redrawCount() - redrawsBefore) / seconds;
        std::size_t results = 0;
        int withCurves = 0;
        for (const auto& t : window.data().trials()) {
            results += t.values.size();
            withCurves += t.values.empty() ? 0 : 1;
        }
        const int points = window.chart()->redraw();
        std::printf(
            "live stream, %d trials at %d results/s for %.0f s (%zu results received, "
            "%.0f/s), %s shown:\n",
            trials, rate, seconds, results, double(results) / seconds, qPrintable(view));
        std::printf(
            "  event-loop lag, ms       idle: p50 %.2f  p99 %.2f  max %.1f   "
            "streaming: p50 %.2f  p99 %.2f  max %.1f  (%d over 50 ms; goal: 0)\n",
            idle.percentile(0.5), idle.percentile(0.99), idle.max(), streaming.percentile(0.5),
            streaming.percentile(0.99), streaming.max(), streaming.over(50));
        std::printf(
            "  lag samples over 16 / 33 / 50 / 100 ms   idle: %d / %d / %d / %d of %zu   "
            "streaming: %d / %d / %d / %d of %zu\n",
            idle.over(16), idle.over(33), idle.over(50), idle.over(100), idle.samples.size(),
            streaming.over(16), streaming.over(33), streaming.over(50), streaming.over(100),
            streaming.samples.size());
        std::printf(
            "  GUI thread's own work between two samples (CPU time): max %.1f ms, %d over "
            "50 ms, %d over 16 ms (the rest of a stall is the machine running others)\n",
            streaming.maxCpu(), streaming.busyOver(50), streaming.busyOver(16));
        std::printf(
            "  chart redraws per second  %.1f (goal: at most 30); %d of %d trials drawn, "
            "%d points after decimation\n",
            redrawRate, withCurves, trials, points);
        std::printf("  resident memory           %.0f MB peak (goal: under 500 MB)\n\n",
                    double(peakKb) / 1024.0);
        fake->kill();
        fake->waitForFinished();
    }
    // 2. A finished history opened from scratch: the window reads the SQLite file (what it does
    //    for any folder this machine can read); the references are the same number of results
    //    replayed over the control API's socket to the client alone, and the metric pulled out
    //    by SQLite's json_extract as the reader did before.
    if (history) {
        const qint64 total = qint64(trials) * historyIterations;
        const QString folder = dir.filePath("history");
        QElapsedTimer clock;
        clock.start();
        if (!writeHistory(folder, trials, historyIterations)) {
            std::fprintf(stderr, "cannot write the history\n");
            return 1;
        }
        const double writeMs = double(clock.nsecsElapsed()) / 1e6;
        const QString mixed = dir.filePath("interleaved");
        if (!interleave(folder, mixed)) {
            std::fprintf(stderr, "cannot write the interleaved history\n");
            return 1;
        }

        const QString socket = dir.filePath("history.sock");
        auto fake = startFake(socket, trials, rate, historyIterations);
        client::EngineClient bare;
        app::ExperimentData data;
        data.setObjective("score", false);
        bool caught = false;
        QObject::connect(&bare, &client::EngineClient::decodedEvent,
                         [&](const QString&, const events::Event& e) { data.apply(e); });
        QObject::connect(&bare, &client::EngineClient::caughtUp, [&] { caught = true; });
        bare.setLocalServer(socket);
        bare.open();
        clock.restart();
        bare.subscribe(QStringLiteral("fake"));
        while (!caught) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        }
        const double replayMs = double(clock.nsecsElapsed()) / 1e6;
        bare.close();
        fake->kill();
        fake->waitForFinished();

        // The read alone, on this thread (the window does it on a worker).
        qint64 rows = 0;
        const double extractMs = readWithJsonExtract(folder, &rows);
        clock.restart();
        {
            app::History read;
            QString error;
            app::readHistory(folder, &read, &error);
        }
        const double readMs = double(clock.nsecsElapsed()) / 1e6;
        clock.restart();
        {
            app::History read;
            QString error;
            app::readHistory(mixed, &read, &error);
        }
        const double readMixedMs = double(clock.nsecsElapsed()) / 1e6;

        const Opened opened = openInWindow(folder, trials, total);
        const Opened openedMixed = openInWindow(mixed, trials, total);
        std::printf(
            "history of %d trials and %lld results (written by the store in %.0f ms), "
            "opened from scratch:\n",
            trials, static_cast<long long>(total), writeMs);
        std::printf(
            "  window, from the SQLite file (table and curves shown): %.0f ms (goal: "
            "under 2,000 ms); longest GUI-thread stall %.1f ms (%d over 50 ms; its own work "
            "at most %.1f ms); %d points drawn; resident memory %.0f MB\n"
            "    read and handed over at %.0f ms, table at %.0f ms, curves at %.0f ms\n",
            opened.ms, opened.longestStall, opened.stallsOver50, opened.longestBusy, opened.points,
            opened.residentMb, opened.dataMs, opened.tableMs, opened.curvesMs);
        std::printf(
            "  the same, results interleaved as a live run writes them: %.0f ms; longest "
            "stall %.1f ms (%d over 50 ms; its own work at most %.1f ms)\n"
            "    read and handed over at %.0f ms, table at %.0f ms, curves at %.0f ms\n",
            openedMixed.ms, openedMixed.longestStall, openedMixed.stallsOver50,
            openedMixed.longestBusy, openedMixed.dataMs, openedMixed.tableMs, openedMixed.curvesMs);
        std::printf(
            "  the read alone (readHistory): %.0f ms, interleaved %.0f ms; reference, the "
            "metric of the %lld rows by json_extract (the previous reader's query, SQL "
            "only): %.0f ms\n",
            readMs, readMixedMs, static_cast<long long>(rows), extractMs);
        std::printf(
            "  reference, the same results replayed over the socket to the client alone: "
            "%.0f ms (window/replay %.2f)\n",
            replayMs, opened.ms / replayMs);
    }
    return 0;
}
