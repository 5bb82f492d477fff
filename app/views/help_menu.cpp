#include "views/help_menu.h"

#include <QAbstractButton>
#include <QApplication>
#include <QCoreApplication>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QUrl>

#include "tunedeck/version.h"

namespace tunedeck::app {

namespace {

class HelpMenu {
    Q_DECLARE_TR_FUNCTIONS(HelpMenu)

  public:
    static void openDocumentation(QMainWindow* window) {
        const QString file = documentationFile();
        if (file.isEmpty()) {
            window->statusBar()->showMessage(
                tr("No documentation found: share/doc/tunedeck/README.md is not installed "
                   "beside the app."));
            return;
        }
        if (!QDesktopServices::openUrl(QUrl::fromLocalFile(file))) {
            window->statusBar()->showMessage(
                tr("No program opens %1 on this desktop.").arg(QDir::toNativeSeparators(file)));
        }
    }

    static void showAbout(QMainWindow* window) {
        // Not exec(): the window goes on updating while the box is open.
        auto* box = new QMessageBox(window);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->setObjectName(QStringLiteral("aboutTunedeck"));
        box->setWindowTitle(tr("About Tunedeck"));
        box->setIconPixmap(QApplication::windowIcon().pixmap(64, 64));
        box->setText(tr("<h3>Tunedeck %1</h3>").arg(QStringLiteral(TUNEDECK_VERSION)));
        box->setInformativeText(
            tr("Hyperparameter tuning: trials on the CPUs and GPUs of this machine or a "
               "cluster, watched live and recorded in SQLite.<br><br>Built from commit %1 "
               "with Qt %2.")
                .arg(QStringLiteral(TUNEDECK_GIT_COMMIT), QString::fromLatin1(qVersion())));
        box->setStandardButtons(QMessageBox::Close);
        box->button(QMessageBox::Close)->setText(tr("Close"));
        box->open();
    }
};

}  // namespace

QString documentationFile() {
    QStringList candidates{
        QDir(QCoreApplication::applicationDirPath())
            .absoluteFilePath(QStringLiteral("../share/doc/tunedeck/README.md"))};
#ifdef TUNEDECK_README_SOURCE
    candidates << QStringLiteral(TUNEDECK_README_SOURCE);
#endif
    for (const QString& candidate : candidates) {
        if (QFileInfo(candidate).isFile()) {
            return QFileInfo(candidate).canonicalFilePath();
        }
    }
    return {};
}

void addHelpMenu(QMainWindow* window) {
    QMenu* help = window->menuBar()->addMenu(HelpMenu::tr("&Help"));
    help->setObjectName(QStringLiteral("helpMenu"));
    help->addAction(HelpMenu::tr("&Documentation"), QKeySequence::HelpContents, window,
                    [window] { HelpMenu::openDocumentation(window); });
    help->addAction(HelpMenu::tr("&About Tunedeck"), window,
                    [window] { HelpMenu::showAbout(window); });
}

}  // namespace tunedeck::app
