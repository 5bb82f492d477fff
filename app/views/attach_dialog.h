// Attaching the window to an engine on a server over SSH: attachOverSsh() does it (for the
// dialog and the command line alike), and the "Attach to a server over SSH" dialog asks for the
// server, the key and the engine's endpoint there, remembers recent servers, shows the progress
// and errors, and asks before trusting an unknown host key.
// Thread-safety: GUI thread only.
#pragma once

#include <QDialog>
#include <QPointer>

#include "client/ssh_target.h"
#include "client/ssh_tunnel.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QSpinBox;
class QFrame;

namespace tunedeck::app {

class MainWindow;

// Attaches `window` to the engine of `target` through a new SSH tunnel owned by the window; an
// earlier tunnel of the window is closed. No engine is ever started here. The tunnel's progress
// and problems go to the window's status bar. Returns the tunnel (its hostKeyUnknown() must be
// answered, see askToTrustHostKey), or nullptr with why in `error`.
client::SshTunnel* attachOverSsh(MainWindow& window, const client::SshTarget& target,
                                 QString* error);
// The tunnel the window is attached through; nullptr when none.
client::SshTunnel* sshTunnelOf(MainWindow& window);
// The host-key question as a message box: true when the user trusts `fingerprint`.
bool askToTrustHostKey(QWidget* parent, const client::SshTarget& target,
                       const QString& fingerprint);
// The token of an engine on TCP: the first line of `path`. False with why in `error`.
bool readTokenFile(const QString& path, QString* token, QString* error);

// File > Attach to a server over SSH...: opens the dialog (or raises the open one).
class AttachDialog;
AttachDialog* showAttachDialog(MainWindow& window);

class AttachDialog : public QDialog {
    Q_OBJECT
  public:
    explicit AttachDialog(MainWindow& window);

    // The servers attached to before, newest first (QSettings "attach/recent").
    static QStringList recentServers();

  private:
    void buildLayout();
    void fillFromRecent(int index);
    void updateFields();
    void attach();
    void onTunnelState(client::SshTunnel::State state, const QString& message);
    void onHostKeyUnknown(const QString& fingerprint, const QString& message);
    void trustShownKey();
    void onAttached();
    void remember(const client::SshTarget& target);
    void showStatus(const QString& message, bool busy);
    // Taller when the words shown need it.
    void growToFit();
    // As tall as the rows need again, once the host key's words are hidden (not left blank).
    void shrinkToFit();

    MainWindow& window_;
    QPointer<client::SshTunnel> tunnel_;
    QMetaObject::Connection readyConnection_;

    QComboBox* server_ = nullptr;  // user@host, with the recent servers
    QSpinBox* port_ = nullptr;
    QRadioButton* useAgent_ = nullptr;
    QRadioButton* useKeyFile_ = nullptr;
    QLineEdit* keyFile_ = nullptr;
    QComboBox* remote_ = nullptr;
    QLineEdit* tokenFile_ = nullptr;
    QLineEdit* knownHosts_ = nullptr;
    QLabel* status_ = nullptr;
    QProgressBar* busy_ = nullptr;
    QFrame* hostKeyPanel_ = nullptr;
    QLabel* hostKeyText_ = nullptr;
    QPushButton* trust_ = nullptr;
    QPushButton* attach_ = nullptr;
};

}  // namespace tunedeck::app
