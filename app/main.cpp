// The Tunedeck desktop app: attaches to a local engine (starting `tunedeck-engine serve` beside
// itself when none runs), to a remote one over TCP with a token, or to one on a server through
// an SSH tunnel (--connect ssh://USER@HOST), and shows its experiments.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>

#include "api/control_protocol.h"
#include "tunedeck/version.h"
#include "views/appearance.h"
#include "views/attach_dialog.h"
#include "views/main_window.h"

namespace {

// --connect ssh://...: the window attaches through a tunnel it owns. Returns 0, or the exit
// status for a command line that cannot work.
int attachOverSsh(const QCommandLineParser& parser, const QString& address,
                  tunedeck::app::MainWindow& window) {
    using tunedeck::client::SshTunnel;
    tunedeck::client::SshTarget target;
    QString error;
    if (!tunedeck::client::SshTarget::parse(address, &target, &error) ||
        !tunedeck::client::RemoteEngine::parse(parser.value(QStringLiteral("remote")),
                                               &target.engine, &error) ||
        (target.engine.needsToken() &&
         !tunedeck::app::readTokenFile(parser.value(QStringLiteral("token-file")), &target.token,
                                       &error))) {
        qCritical("%s", qPrintable(error));
        return 2;
    }
    target.privateKeyFile = parser.value(QStringLiteral("ssh-key"));
    target.knownHostsFile = parser.value(QStringLiteral("known-hosts"));
    target.acceptNewHostKey = parser.isSet(QStringLiteral("accept-new-host-key"));
    SshTunnel* tunnel = tunedeck::app::attachOverSsh(window, target, &error);
    if (!tunnel) {
        qCritical("%s", qPrintable(error));
        return 1;
    }
    QObject::connect(
        tunnel, &SshTunnel::stateChanged, tunnel,
        [](SshTunnel::State state, const QString& message) {
            if (state == SshTunnel::State::Failed || state == SshTunnel::State::WaitingToRetry) {
                qWarning("%s", qPrintable(message));
            }
        });
    QObject::connect(tunnel, &SshTunnel::engineUnreachable, tunnel,
                     [last = QString()](const QString& message) mutable {
                         if (message != last) {  // the client retries: say it once
                             qWarning("%s", qPrintable(message));
                             last = message;
                         }
                     });
    // Without --accept-new-host-key, the user's word comes from the same question the dialog
    // asks; queued, so that its modal loop does not run inside the SSH session's signal.
    QObject::connect(
        tunnel, &SshTunnel::hostKeyUnknown, tunnel,
        [tunnel, &window](const QString& fingerprint, const QString& message) {
            qWarning("%s", qPrintable(message));
            if (tunedeck::app::askToTrustHostKey(&window, tunnel->target(), fingerprint)) {
                tunnel->trustHostKey(fingerprint);
            }
        },
        Qt::QueuedConnection);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("tunedeck"));
    QApplication::setOrganizationName(QStringLiteral("tunedeck"));
    QApplication::setApplicationVersion(
        QStringLiteral(TUNEDECK_VERSION " (" TUNEDECK_GIT_COMMIT ")"));
    QApplication::setDesktopFileName(QStringLiteral("org.tunedeck.Tunedeck"));
    tunedeck::app::applyAppearance(tunedeck::app::savedAppearance());
    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::tr("Tunedeck desktop app"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("EXPERIMENT"),
        QApplication::tr("An experiment file to run, or an experiment folder (or its "
                         "experiment.sqlite) under the engine's results root to open."),
        QStringLiteral("[EXPERIMENT]"));
    parser.addOption({QStringLiteral("engine-socket"),
                      QApplication::tr("The local engine's socket (default %1).")
                          .arg(tunedeck::api::defaultSocketPath()),
                      QStringLiteral("PATH")});
    parser.addOption(
        {QStringLiteral("connect"),
         QApplication::tr("Attach to an engine at tcp:HOST:PORT, or to one on a server through an "
                          "SSH tunnel: ssh://USER@HOST[:PORT]."),
         QStringLiteral("ADDRESS")});
    parser.addOption({QStringLiteral("token-file"),
                      QApplication::tr("The engine's token, when it listens on TCP (the first "
                                       "line of this file)."),
                      QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("remote"),
                      QApplication::tr("With ssh://: where the engine listens on the server, "
                                       "unix:PATH or tcp:127.0.0.1:PORT (default: the SSH user's "
                                       "own `tunedeck-engine serve` socket)."),
                      QStringLiteral("ENGINE")});
    parser.addOption({QStringLiteral("ssh-key"),
                      QApplication::tr("With ssh://: the private key to log in with (default: "
                                       "the keys of the ssh-agent)."),
                      QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("known-hosts"),
                      QApplication::tr("With ssh://: the known_hosts file (default "
                                       "~/.ssh/known_hosts)."),
                      QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("accept-new-host-key"),
                      QApplication::tr("With ssh://: trust the server's host key when it is not "
                                       "known yet, and record it. A changed key is refused "
                                       "anyway.")});
    parser.process(app);

    tunedeck::app::MainWindow window;
    const QString connectTo = parser.value(QStringLiteral("connect"));
    if (connectTo.startsWith(QLatin1String("ssh:")) || connectTo.contains('@')) {
        if (int status = attachOverSsh(parser, connectTo, window); status != 0) {
            return status;
        }
    } else if (parser.isSet(QStringLiteral("connect"))) {
        tunedeck::api::ListenAddress address;
        if (tunedeck::Status s = tunedeck::api::parseListenAddress(connectTo, &address);
            !s || address.kind != tunedeck::api::ListenAddress::Kind::Tcp) {
            qCritical("%s", qPrintable(s ? QStringLiteral("--connect takes tcp:HOST:PORT or "
                                                          "ssh://USER@HOST[:PORT]")
                                         : s.message()));
            return 2;
        }
        QFile tokenFile(parser.value(QStringLiteral("token-file")));
        const QString token = tokenFile.open(QIODevice::ReadOnly)
                                  ? QString::fromUtf8(tokenFile.readLine()).trimmed()
                                  : QString();
        window.attachTcp(address.host, address.port, token);
    } else {
        const QString socket = parser.isSet(QStringLiteral("engine-socket"))
                                   ? parser.value(QStringLiteral("engine-socket"))
                                   : tunedeck::api::defaultSocketPath();
        window.attachLocal(socket,
                           QDir(QApplication::applicationDirPath()).filePath("tunedeck-engine"));
    }
    if (!parser.positionalArguments().isEmpty()) {
        const QFileInfo given(parser.positionalArguments().first());
        if (given.suffix() == QLatin1String("yaml") || given.suffix() == QLatin1String("yml")) {
            window.runExperimentFile(given.absoluteFilePath());
        } else {
            // An experiment folder, or its experiment.sqlite: shown at once from its file, and
            // live as well once the engine says the folder is one of its experiments.
            const QString folder = given.isDir() ? given.absoluteFilePath() : given.absolutePath();
            window.openFolder(folder);
            auto once = std::make_shared<QMetaObject::Connection>();
            *once = QObject::connect(&window.client(), &tunedeck::client::EngineClient::ready,
                                     &window, [&window, folder, once] {
                                         QObject::disconnect(*once);
                                         window.openFolder(folder);
                                     });
        }
    }
    // A language change restarts the app once this one has ended: with the same engine, showing
    // what was open rather than running the command line's experiment file again.
    QStringList restart;
    bool restarting = false;
    QObject::connect(&window, &tunedeck::app::MainWindow::restartRequested, &window,
                     [&](const QString& folder) {
                         restarting = true;
                         restart = QApplication::arguments().mid(1);
                         for (const QString& given : parser.positionalArguments()) {
                             restart.removeOne(given);
                         }
                         if (!folder.isEmpty()) {
                             restart << folder;
                         }
                     });
    window.resize(1280, 800);
    window.show();
    const int status = QApplication::exec();
    if (restarting) {
        QProcess::startDetached(QApplication::applicationFilePath(), restart);
    }
    return status;
}
