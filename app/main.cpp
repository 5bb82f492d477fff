// The Tunedeck desktop app: attaches to a local engine (starting `tunedeck-engine serve` beside
// itself when none runs) or to a remote one over TCP with a token, and shows its experiments.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include "api/control_protocol.h"
#include "tunedeck/version.h"
#include "views/main_window.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("tunedeck"));
    QApplication::setOrganizationName(QStringLiteral("tunedeck"));
    QApplication::setApplicationVersion(
        QStringLiteral(TUNEDECK_VERSION " (" TUNEDECK_GIT_COMMIT ")"));
    QApplication::setDesktopFileName(QStringLiteral("org.tunedeck.Tunedeck"));
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
    parser.addOption({QStringLiteral("connect"),
                      QApplication::tr("Attach to an engine at tcp:HOST:PORT instead."),
                      QStringLiteral("ADDRESS")});
    parser.addOption({QStringLiteral("token-file"),
                      QApplication::tr("The token for --connect (its first line)."),
                      QStringLiteral("FILE")});
    parser.process(app);

    tunedeck::app::MainWindow window;
    if (parser.isSet(QStringLiteral("connect"))) {
        tunedeck::api::ListenAddress address;
        if (tunedeck::Status s = tunedeck::api::parseListenAddress(
                parser.value(QStringLiteral("connect")), &address);
            !s || address.kind != tunedeck::api::ListenAddress::Kind::Tcp) {
            qCritical("%s", qPrintable(s ? QStringLiteral("--connect takes tcp:HOST:PORT")
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
    window.resize(1280, 800);
    window.show();
    return QApplication::exec();
}
