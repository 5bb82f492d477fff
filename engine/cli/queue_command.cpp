// Requests to a running serve over the control API from the command line. queue: serve's fair
// queue as a table (the `queue` op): each experiment's user, priority, trials running of those it
// may run, trials it wants, and why it waits. set-max-workers: a new max_workers for one node
// type of a running experiment's autoscaled cluster (the `set_max_workers` op). set-limits: new
// num_samples and max_concurrent_trials of a running experiment (the `set_limits` op). note: a
// trial's note (the `set_trial_note` op through a server; without --connect, straight into an
// experiment folder no engine runs, cli/trial_notes.h).
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalSocket>
#include <QTcpSocket>
#include <cstdio>
#include <memory>

#include "api/control_protocol.h"
#include "api/control_server.h"
#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/experiment_launch.h"
#include "cli/trial_notes.h"

namespace tunedeck::cli {

namespace {

constexpr int kAnswerTimeoutMs = 10000;

// Sends `request` and returns the answer with its id, skipping other lines (events).
bool ask(QIODevice& socket, const QJsonObject& request, QJsonObject* answer, QString* error) {
    socket.write(QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n');
    for (;;) {
        while (!socket.canReadLine()) {
            if (!socket.waitForReadyRead(kAnswerTimeoutMs)) {
                *error = QStringLiteral("no answer from the server: %1").arg(socket.errorString());
                return false;
            }
        }
        const QJsonObject line = QJsonDocument::fromJson(socket.readLine()).object();
        if (line.value("id") == request.value("id")) {
            *answer = line;
            if (!line.value("ok").toBool()) {
                *error = line.value("error").toObject().value("message").toString();
                return false;
            }
            return true;
        }
    }
}

std::unique_ptr<QIODevice> connectTo(const api::ListenAddress& address, QString* error) {
    if (address.kind == api::ListenAddress::Kind::Unix) {
        auto socket = std::make_unique<QLocalSocket>();
        socket->connectToServer(address.path);
        if (!socket->waitForConnected(kAnswerTimeoutMs)) {
            *error = QStringLiteral("cannot connect to %1: %2")
                         .arg(address.toString(), socket->errorString());
            return nullptr;
        }
        return socket;
    }
    auto socket = std::make_unique<QTcpSocket>();
    socket->connectToHost(address.host, address.port);
    if (!socket->waitForConnected(kAnswerTimeoutMs)) {
        *error = QStringLiteral("cannot connect to %1: %2")
                     .arg(address.toString(), socket->errorString());
        return nullptr;
    }
    return socket;
}

void printTable(const QJsonObject& queue) {
    const QJsonObject capacity = queue.value("capacity").toObject();
    const QJsonObject inUse = queue.value("in_use").toObject();
    std::printf("In use: %g of %g CPUs, %g of %g GPUs\n", inUse.value("cpu").toDouble(),
                capacity.value("cpu").toDouble(), inUse.value("gpu").toDouble(),
                capacity.value("gpu").toDouble());
    std::printf("%-24s %-12s %8s %9s %7s  %s\n", "EXPERIMENT", "USER", "PRIORITY", "RUNNING",
                "WANTED", "WAITS BECAUSE");
    for (const QJsonValue& v : queue.value("experiments").toArray()) {
        const QJsonObject e = v.toObject();
        const QString running =
            QStringLiteral("%1/%2").arg(e.value("running").toInt()).arg(e.value("slots").toInt());
        std::printf("%-24s %-12s %8d %9s %7d  %s\n", qPrintable(e.value("experiment").toString()),
                    qPrintable(e.value("user").toString()), e.value("priority").toInt(),
                    qPrintable(running), e.value("wanted").toInt(),
                    qPrintable(e.value("why").toString()));
    }
}

void addConnectOptions(QCommandLineParser& parser) {
    parser.addOption({QStringLiteral("connect"),
                      QStringLiteral("unix:PATH or tcp:HOST:PORT (default unix:%1).")
                          .arg(api::defaultSocketPath()),
                      QStringLiteral("ADDRESS")});
    parser.addOption({QStringLiteral("token-file"),
                      QStringLiteral("File whose first line is the server's token (TCP)."),
                      QStringLiteral("FILE")});
}

// Connects to the server --connect names and says hello; nothing (and `exitCode`) when it failed.
std::unique_ptr<QIODevice> connectAndGreet(const QCommandLineParser& parser, int* exitCode) {
    api::ListenAddress address;
    const QString where = parser.isSet(QStringLiteral("connect"))
                              ? parser.value(QStringLiteral("connect"))
                              : QStringLiteral("unix:") + api::defaultSocketPath();
    if (Status s = api::parseListenAddress(where, &address); !s) {
        *exitCode = fail(QStringLiteral("--connect: %1").arg(s.message()));
        return nullptr;
    }
    QString token;
    if (parser.isSet(QStringLiteral("token-file"))) {
        if (Status s = api::readTokenFile(parser.value(QStringLiteral("token-file")), &token); !s) {
            *exitCode = fail(s.message());
            return nullptr;
        }
    }
    QString error;
    std::unique_ptr<QIODevice> socket = connectTo(address, &error);
    QJsonObject answer;
    QJsonObject hello{{"id", 1}, {"op", api::op::kHello}};
    if (!token.isEmpty()) {
        hello.insert("token", token);
    }
    if (!socket || !ask(*socket, hello, &answer, &error)) {
        *exitCode = fail(error, 1);
        return nullptr;
    }
    return socket;
}

// An order to the server --connect names, about `experiment`: 0 when it was taken, otherwise the
// exit code after printing why ("EXPERIMENT: the server's reason").
int orderServer(const QCommandLineParser& parser, const QString& experiment, QJsonObject request) {
    int exitCode = 0;
    const std::unique_ptr<QIODevice> socket = connectAndGreet(parser, &exitCode);
    if (!socket) {
        return exitCode;
    }
    request.insert("id", 2);
    request.insert("experiment", experiment);
    QJsonObject answer;
    QString error;
    if (!ask(*socket, request, &answer, &error)) {
        return fail(QStringLiteral("%1: %2").arg(experiment, error), kExitBadInput);
    }
    return 0;
}

}  // namespace

int queue(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Show the fair queue of a running serve."));
    addConnectOptions(parser);
    parser.addOption({QStringLiteral("format"), QStringLiteral("text (default) or json."),
                      QStringLiteral("FORMAT")});
    if (!parseArguments(parser, QStringLiteral("queue"), args, 0)) {
        return kExitBadInput;
    }
    const QString format = parser.value(QStringLiteral("format"));
    if (!format.isEmpty() && format != QLatin1String("text") && format != QLatin1String("json")) {
        return fail(QStringLiteral("--format: expected text or json, not '%1'").arg(format));
    }
    int exitCode = 0;
    const std::unique_ptr<QIODevice> socket = connectAndGreet(parser, &exitCode);
    if (!socket) {
        return exitCode;
    }
    QJsonObject answer;
    QString error;
    if (!ask(*socket, {{"id", 2}, {"op", api::op::kQueue}}, &answer, &error)) {
        return fail(error, 1);
    }
    answer.remove("id");
    answer.remove("ok");
    if (format == QLatin1String("json")) {
        std::printf("%s\n", QJsonDocument(answer).toJson(QJsonDocument::Indented).constData());
    } else {
        printTable(answer);
    }
    return 0;
}

int setMaxWorkers(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Set max_workers of a node type of a running experiment's cluster."));
    parser.addPositionalArgument(QStringLiteral("experiment"),
                                 QStringLiteral("As serve names it."));
    parser.addPositionalArgument(QStringLiteral("node_type"),
                                 QStringLiteral("A node type of its cluster file."));
    parser.addPositionalArgument(QStringLiteral("max_workers"), QStringLiteral("A whole number."));
    addConnectOptions(parser);
    if (!parseArguments(parser, QStringLiteral("set-max-workers"), args, 3)) {
        return kExitBadInput;
    }
    const QStringList positional = parser.positionalArguments();
    bool number = false;
    const int cap = positional[2].toInt(&number);
    if (!number || cap < 0) {
        return fail(QStringLiteral("max_workers: expected a whole number from 0, not '%1'")
                        .arg(positional[2]));
    }
    if (const int refused = orderServer(parser, positional[0],
                                        {{"op", api::op::kSetMaxWorkers},
                                         {"node_type", positional[1]},
                                         {"max_workers", cap}})) {
        return refused;
    }
    std::printf("%s: max_workers of %s is %d from now on.\n", qPrintable(positional[0]),
                qPrintable(positional[1]), cap);
    return 0;
}

int setLimits(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Change num_samples and max_concurrent_trials of a running experiment. More samples "
        "make the searcher propose more trials; fewer than the trials already created are "
        "refused. A lower max_concurrent_trials stops no running trial: new ones wait until "
        "fewer run. The change is recorded; resume keeps it."));
    parser.addPositionalArgument(QStringLiteral("experiment"),
                                 QStringLiteral("As serve names it."));
    parser.addOption({QStringLiteral("num-samples"),
                      QStringLiteral("The experiment's num_samples from now on (>= 1)."),
                      QStringLiteral("N")});
    parser.addOption({QStringLiteral("max-concurrent"),
                      QStringLiteral("Its max_concurrent_trials from now on (>= 1)."),
                      QStringLiteral("N")});
    addConnectOptions(parser);
    if (!parseArguments(parser, QStringLiteral("set-limits"), args, 1)) {
        return kExitBadInput;
    }
    const QString name = parser.positionalArguments().constFirst();
    QJsonObject request{{"id", 2}, {"op", api::op::kSetLimits}, {"experiment", name}};
    const std::pair<const char*, const char*> limits[] = {
        {"num-samples", "num_samples"}, {"max-concurrent", "max_concurrent_trials"}};
    for (const auto& [option, field] : limits) {
        if (!parser.isSet(QLatin1String(option))) {
            continue;
        }
        bool number = false;
        const int value = parser.value(QLatin1String(option)).toInt(&number);
        if (!number || value < 1) {
            return fail(QStringLiteral("--%1: expected a whole number >= 1, not '%2'")
                            .arg(QLatin1String(option), parser.value(QLatin1String(option))));
        }
        request.insert(QLatin1String(field), value);
    }
    if (request.size() == 3) {
        return fail(QStringLiteral("set-limits: give --num-samples N, --max-concurrent N or both"));
    }
    if (const int refused = orderServer(parser, name, request)) {
        return refused;
    }
    QStringList changed;
    for (const auto& [option, field] : limits) {
        if (request.contains(QLatin1String(field))) {
            changed << QStringLiteral("%1 %2")
                           .arg(QLatin1String(field))
                           .arg(request.value(QLatin1String(field)).toInt());
        }
    }
    std::printf("%s: %s from now on.\n", qPrintable(name), qPrintable(changed.join(", ")));
    return 0;
}

int note(const QStringList& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Set a trial's note (empty text: remove it). Without --connect EXPERIMENT is a folder no "
        "engine runs; with it, the name a server gives the experiment, running or not."));
    parser.addPositionalArgument(QStringLiteral("experiment"),
                                 QStringLiteral("Experiment folder, or its name on the server."));
    parser.addPositionalArgument(QStringLiteral("trial"), QStringLiteral("Trial id (t00003)."));
    parser.addPositionalArgument(QStringLiteral("text"), QStringLiteral("The note."));
    addConnectOptions(parser);
    if (!parseArguments(parser, QStringLiteral("note"), args, 3)) {
        return kExitBadInput;
    }
    const QStringList positional = parser.positionalArguments();
    if (!parser.isSet(QStringLiteral("connect"))) {
        if (const Status s = recordTrialNote(positional[0], positional[1], positional[2]); !s) {
            const QString hint = s.code() == Status::Code::Busy
                                     ? QStringLiteral(
                                           "; a running experiment's notes go through its server "
                                           "(--connect ADDRESS), or the app")
                                     : QString();
            return fail(QStringLiteral("note: %1%2").arg(s.message(), hint), kExitBadInput);
        }
    } else {
        if (const int refused = orderServer(parser, positional[0],
                                            {{"op", api::op::kSetTrialNote},
                                             {"trial", positional[1]},
                                             {"note", positional[2]}})) {
            return refused;
        }
    }
    std::printf(positional[2].isEmpty() ? "%s %s: note removed.\n" : "%s %s: note set.\n",
                qPrintable(positional[0]), qPrintable(positional[1]));
    return 0;
}

}  // namespace tunedeck::cli
