// The screenshot tour's SSH part: a real OpenSSH server on loopback with a `tunedeck-engine serve`
// behind it on the SSH user's default socket, and the window attached to it as a new user does.
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <csignal>

#include "screenshot_tour.h"
#include "sshd_fixture.h"
#include "views/attach_dialog.h"
#include "views/main_window.h"
#include "wait_for.h"

using namespace tunedeck::app;

namespace tour {

// The loop attached to a server over SSH as a new user does it: File > Attach to a server over
// SSH filled in and Attach clicked (a real OpenSSH server on loopback, its engine on the SSH
// user's default socket), the unknown host key trusted, a template run and watched, the best
// config exported, and the experiment opened again from the list.
void shootOverSsh(const QTemporaryDir& work, const QString& experimentFile) {
    if (QString why; !sshdAvailable(&why)) {
        qWarning("no SSH tour: %s", qPrintable(why));
        return;
    }
    SshdFixture sshd;
    const QString runtime = work.filePath("server-run");
    QDir().mkpath(runtime);
    sshd.extraConfig =
        QStringLiteral("SetEnv XDG_RUNTIME_DIR=%1 HOME=%2").arg(runtime, sshd.homeDir());
    QString error;
    if (!sshd.start(&error)) {
        qWarning("no SSH tour: %s", qPrintable(error));
        return;
    }
    QProcess server;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert("XDG_RUNTIME_DIR", runtime);
    server.setProcessEnvironment(environment);
    server.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    server.start(QStringLiteral(TUNEDECK_BIN_DIR "/tunedeck-engine"),
                 {"serve", "--results", work.filePath("server-results")});
    const auto stopServer = [&server] {
        ::kill(pid_t(server.processId()), SIGTERM);
        server.waitForFinished(30000);
    };
    if (!waitFor([&] { return QFile::exists(runtime + "/tunedeck/engine.sock"); }, 20000)) {
        qWarning("no SSH tour: the server's engine did not start");
        stopServer();
        return;
    }
    MainWindow remote;
    remote.resize(1280, 800);
    remote.show();
    AttachDialog* dialog = showAttachDialog(remote);
    QTest::qWait(300);
    QLineEdit* serverField = dialog->findChild<QComboBox*>(QStringLiteral("server"))->lineEdit();
    serverField->clear();  // the most recent server is offered
    QTest::keyClicks(serverField, sshd.user() + '@' + sshd.host());
    dialog->findChild<QSpinBox*>(QStringLiteral("port"))->setValue(sshd.port());
    auto* keyFile = dialog->findChild<QLineEdit*>(QStringLiteral("keyFile"));
    keyFile->clear();
    QTest::keyClicks(keyFile, sshd.userKeyPath());
    auto* knownHosts = dialog->findChild<QLineEdit*>(QStringLiteral("knownHosts"));
    knownHosts->clear();
    QTest::keyClicks(knownHosts, work.filePath("known_hosts"));
    shootScreen(dialog, "17a-ssh-attach-dialog");
    dialog->findChild<QPushButton*>(QStringLiteral("attach"))->click();
    auto* trust = dialog->findChild<QPushButton*>(QStringLiteral("trustHostKey"));
    if (waitFor([&] { return trust->isVisible(); }, 20000)) {
        QTest::qWait(300);  // painted
        shootScreen(dialog, "17b-ssh-unknown-host-key");
        trust->click();
    }
    if (!waitFor([&] { return remote.client().isReady(); }, 30000)) {
        shootScreen(dialog, "17b-ssh-not-attached");
        qWarning("SSH tour: not attached");
        stopServer();
        return;
    }
    QTest::qWait(500);
    shoot(&remote, "17c-ssh-attached");
    remote.runExperimentFile(experimentFile, [](const QString& refusal) {
        if (!refusal.isEmpty()) {
            qWarning("SSH tour: the server refused the run: %s", qPrintable(refusal));
        }
    });
    if (waitFor([&] { return remote.data().counts().terminated >= 3; }, 120000)) {
        shoot(&remote, "17d-ssh-running");
    }
    if (waitFor([&] { return remote.data().experimentStatus() == "finished"; }, 180000)) {
        showTab(remote, QObject::tr("Study plots"));
        shoot(&remote, "17e-ssh-finished-history");
        const QString best = work.filePath("best-over-ssh.yaml");
        remote.exportBestTo(best, QStringLiteral("yaml"));
        if (waitFor([&] { return QFile::exists(best); }, 20000)) {
            QFile text(best);
            text.open(QIODevice::ReadOnly);
            qInfo("best config exported over SSH:\n%s", text.readAll().constData());
        }
        shoot(&remote, "17f-ssh-exported");
        // Opened again after a restart of the app: a new window, the recent server picked in
        // the dialog, the experiment clicked in the list.
        MainWindow again;
        again.resize(1280, 800);
        again.show();
        AttachDialog* second = showAttachDialog(again);
        auto* recent = second->findChild<QComboBox*>(QStringLiteral("server"));
        recent->setCurrentIndex(0);
        emit recent->activated(0);
        second->findChild<QPushButton*>(QStringLiteral("attach"))->click();
        auto* list = again.findChild<QTreeWidget*>();
        if (waitFor([&] { return again.client().isReady() && list->topLevelItemCount() > 0; },
                    30000)) {
            QTreeWidgetItem* row = list->topLevelItem(0);
            QTest::mouseClick(list->viewport(), Qt::LeftButton, {},
                              list->visualItemRect(row).center());
            waitFor([&] { return again.data().trials().size() == 12; }, 20000);
            showTab(again, QObject::tr("Curves"));
            shoot(&again, "17g-ssh-reopened");
        } else {
            shootScreen(second, "17g-ssh-not-reattached");
        }
    }
    stopServer();  // the dialog closed itself once attached; the window owns it
}

}  // namespace tour
