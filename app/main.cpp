// The Tunedeck desktop app. Until the desktop issue lands it is a window that says what to use
// instead, and --version / --help like every Tunedeck binary.
#include <QApplication>
#include <QCommandLineParser>
#include <QLabel>

#include "tunedeck/version.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("tunedeck"));
    QApplication::setApplicationVersion(
        QStringLiteral(TUNEDECK_VERSION " (" TUNEDECK_GIT_COMMIT ")"));
    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::tr("Tunedeck desktop app"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.process(app);

    QLabel label(QApplication::tr(
        "The Tunedeck desktop app is not built yet.\nRun experiments with tunedeck-engine."));
    label.setMargin(24);
    label.setWindowTitle(QStringLiteral("Tunedeck"));
    label.show();
    return QApplication::exec();
}
