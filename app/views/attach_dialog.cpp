#include "views/attach_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QVBoxLayout>
#include <algorithm>

#include "session/engine_connection.h"
#include "views/main_window.h"

namespace tunedeck::app {

using client::RemoteEngine;
using client::SshTarget;
using client::SshTunnel;

namespace {

constexpr int kMaxRecentServers = 8;
const QString kRecentKey = QStringLiteral("attach/recent");
const QString kTunnelName = QStringLiteral("sshTunnel");
constexpr int kTunnelMessageMs = 10000;  // as long as the window's own messages stay

}  // namespace

SshTunnel* sshTunnelOf(MainWindow& window) {
    return window.connection().tunnel();
}

SshTunnel* attachOverSsh(MainWindow& window, const SshTarget& target, QString* error) {
    auto* tunnel = new SshTunnel(target, &window);
    if (!tunnel->start(error)) {
        delete tunnel;
        return nullptr;
    }
    tunnel->setObjectName(kTunnelName);
    // A message hides the trial counts beside it: the tunnel's pass like the window's own, and
    // only those that wait on the user stay (View > Messages... keeps every one).
    QObject::connect(
        tunnel, &SshTunnel::stateChanged, &window,
        [&window](SshTunnel::State state, const QString& message) {
            const bool waitsOnUser =
                state == SshTunnel::State::Failed || state == SshTunnel::State::HostKeyUnknown;
            window.statusBar()->showMessage(message, waitsOnUser ? 0 : kTunnelMessageMs);
        });
    QObject::connect(tunnel, &SshTunnel::engineUnreachable, &window,
                     [&window](const QString& message) {
                         window.statusBar()->showMessage(message, kTunnelMessageMs);
                     });
    window.statusBar()->showMessage(tunnel->statusText(), kTunnelMessageMs);
    window.client().setToken(target.engine.needsToken() ? target.token : QString());
    // The tunnel's socket is private to this user, like a local engine's; no engine binary, so
    // nothing is ever started on this machine for a remote attach.
    window.attachThroughTunnel(tunnel->localSocketPath(), target.toString());
    window.connection().adoptTunnel(tunnel);  // the earlier one is closed
    return tunnel;
}

bool askToTrustHostKey(QWidget* parent, const SshTarget& target, const QString& fingerprint) {
    QMessageBox box(QMessageBox::Warning, AttachDialog::tr("Unknown host key"),
                    AttachDialog::tr("The host key of %1 is not known.").arg(target.toString()),
                    QMessageBox::Cancel, parent);
    box.setInformativeText(
        AttachDialog::tr("Its fingerprint is\n\n%1\n\nCompare it with the server's own "
                         "(ssh-keygen -lf on its host key) before trusting it. Trusted keys "
                         "are recorded in known_hosts.")
            .arg(fingerprint));
    QPushButton* trust =
        box.addButton(AttachDialog::tr("Trust this key and connect"), QMessageBox::AcceptRole);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == trust;
}

bool readTokenFile(const QString& path, QString* token, QString* error) {
    QFile file(path);
    if (path.isEmpty()) {
        *error = AttachDialog::tr("an engine on TCP needs its token: give its token file");
        return false;
    }
    if (!file.open(QIODevice::ReadOnly)) {
        *error =
            AttachDialog::tr("cannot read the token file %1: %2").arg(path, file.errorString());
        return false;
    }
    *token = QString::fromUtf8(file.readLine()).trimmed();
    if (token->isEmpty()) {
        *error = AttachDialog::tr("the token file %1 has an empty first line").arg(path);
        return false;
    }
    return true;
}

AttachDialog* showAttachDialog(MainWindow& window) {
    auto* dialog = window.findChild<AttachDialog*>(QString(), Qt::FindDirectChildrenOnly);
    if (!dialog) {
        dialog = new AttachDialog(window);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
    }
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
    return dialog;
}

AttachDialog::AttachDialog(MainWindow& window) : QDialog(&window), window_(window) {
    setWindowTitle(tr("Attach to a server over SSH"));
    buildLayout();
    if (server_->count() > 0) {
        fillFromRecent(0);
    }
    updateFields();
}

QStringList AttachDialog::recentServers() {
    QStringList servers;
    for (const QVariant& entry : QSettings().value(kRecentKey).toList()) {
        servers << entry.toMap().value(QStringLiteral("server")).toString();
    }
    return servers;
}

void AttachDialog::buildLayout() {
    auto* form = new QFormLayout;
    server_ = new QComboBox;
    server_->setObjectName(QStringLiteral("server"));
    server_->setEditable(true);
    server_->addItems(recentServers());
    server_->lineEdit()->setPlaceholderText(tr("user@host"));
    connect(server_, &QComboBox::activated, this, &AttachDialog::fillFromRecent);
    form->addRow(tr("&Server:"), server_);

    port_ = new QSpinBox;
    port_->setObjectName(QStringLiteral("port"));
    port_->setRange(1, 65535);
    port_->setValue(22);
    form->addRow(tr("&Port:"), port_);

    useAgent_ = new QRadioButton(tr("Keys of the ssh-&agent"));
    useKeyFile_ = new QRadioButton(tr("&Key file:"));
    useAgent_->setChecked(true);
    keyFile_ = new QLineEdit;
    keyFile_->setObjectName(QStringLiteral("keyFile"));
    keyFile_->setPlaceholderText(tr("~/.ssh/id_ed25519"));
    auto* browseKey = new QPushButton(tr("Browse..."));
    connect(browseKey, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Private key"), QDir::homePath() + "/.ssh");
        if (!path.isEmpty()) {
            keyFile_->setText(path);
            useKeyFile_->setChecked(true);
        }
    });
    connect(keyFile_, &QLineEdit::textEdited, this, [this] { useKeyFile_->setChecked(true); });
    auto* keyRow = new QHBoxLayout;
    keyRow->addWidget(useKeyFile_);
    keyRow->addWidget(keyFile_, 1);
    keyRow->addWidget(browseKey);
    auto* auth = new QVBoxLayout;
    auth->addWidget(useAgent_);
    auth->addLayout(keyRow);
    form->addRow(tr("Log in with:"), auth);

    remote_ = new QComboBox;
    remote_->setObjectName(QStringLiteral("remote"));
    remote_->setEditable(true);
    remote_->addItems({QString(), QStringLiteral("tcp:127.0.0.1:7788")});
    remote_->lineEdit()->setPlaceholderText(
        tr("the default socket of serve ($XDG_RUNTIME_DIR/tunedeck/engine.sock)"));
    remote_->setToolTip(
        tr("Where the engine listens on the server: unix:PATH, or "
           "tcp:127.0.0.1:PORT with its token. Empty: the SSH user's own "
           "`tunedeck-engine serve`."));
    connect(remote_, &QComboBox::currentTextChanged, this, &AttachDialog::updateFields);
    form->addRow(tr("&Engine on the server:"), remote_);

    tokenFile_ = new QLineEdit;
    tokenFile_->setObjectName(QStringLiteral("tokenFile"));
    tokenFile_->setPlaceholderText(tr("a local file whose first line is the engine's token"));
    form->addRow(tr("&Token file:"), tokenFile_);

    knownHosts_ = new QLineEdit;
    knownHosts_->setObjectName(QStringLiteral("knownHosts"));
    knownHosts_->setPlaceholderText(QStringLiteral("~/.ssh/known_hosts"));
    form->addRow(tr("Known &hosts:"), knownHosts_);

    status_ = new QLabel;
    status_->setObjectName(QStringLiteral("status"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    busy_ = new QProgressBar;
    busy_->setRange(0, 0);
    busy_->setVisible(false);

    hostKeyPanel_ = new QFrame;
    hostKeyPanel_->setFrameShape(QFrame::StyledPanel);
    hostKeyText_ = new QLabel;
    hostKeyText_->setObjectName(QStringLiteral("hostKey"));
    hostKeyText_->setWordWrap(true);
    hostKeyText_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    trust_ = new QPushButton(tr("Trust this key and connect"));
    trust_->setObjectName(QStringLiteral("trustHostKey"));
    connect(trust_, &QPushButton::clicked, this, &AttachDialog::trustShownKey);
    auto* panel = new QVBoxLayout(hostKeyPanel_);
    panel->addWidget(hostKeyText_);
    panel->addWidget(trust_, 0, Qt::AlignRight);
    hostKeyPanel_->setVisible(false);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    attach_ = buttons->addButton(tr("&Attach"), QDialogButtonBox::AcceptRole);
    attach_->setObjectName(QStringLiteral("attach"));
    attach_->setDefault(true);
    connect(attach_, &QPushButton::clicked, this, &AttachDialog::attach);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(status_);
    layout->addWidget(busy_);
    layout->addWidget(hostKeyPanel_);
    layout->addWidget(buttons);
    setMinimumWidth(520);
}

void AttachDialog::fillFromRecent(int index) {
    const QVariantMap entry = QSettings().value(kRecentKey).toList().value(index).toMap();
    SshTarget target;
    QString error;
    if (!SshTarget::parse(entry.value(QStringLiteral("server")).toString(), &target, &error)) {
        return;
    }
    server_->setEditText(QStringLiteral("%1@%2").arg(target.user, target.host));
    port_->setValue(target.port);
    const QString key = entry.value(QStringLiteral("key")).toString();
    keyFile_->setText(key);
    (key.isEmpty() ? useAgent_ : useKeyFile_)->setChecked(true);
    remote_->setEditText(entry.value(QStringLiteral("remote")).toString());
    tokenFile_->setText(entry.value(QStringLiteral("tokenFile")).toString());
    knownHosts_->setText(entry.value(QStringLiteral("knownHosts")).toString());
}

void AttachDialog::updateFields() {
    tokenFile_->setEnabled(remote_->currentText().trimmed().startsWith(QLatin1String("tcp:")));
}

void AttachDialog::showStatus(const QString& message, bool busy) {
    status_->setText(message);
    busy_->setVisible(busy);
    growToFit();
}

void AttachDialog::attach() {
    SshTarget target;
    QString error;
    if (!SshTarget::parse(server_->currentText(), &target, &error) ||
        !RemoteEngine::parse(remote_->currentText(), &target.engine, &error)) {
        showStatus(error, false);
        return;
    }
    if (target.port == 22) {
        target.port = port_->value();
    }
    target.privateKeyFile = useKeyFile_->isChecked() ? keyFile_->text().trimmed() : QString();
    if (target.privateKeyFile.startsWith(QLatin1String("~/"))) {
        target.privateKeyFile.replace(0, 1, QDir::homePath());
    }
    target.knownHostsFile = knownHosts_->text().trimmed();
    if (target.engine.needsToken() &&
        !readTokenFile(tokenFile_->text().trimmed(), &target.token, &error)) {
        showStatus(error, false);
        return;
    }
    if (hostKeyPanel_->isVisible()) {
        hostKeyPanel_->setVisible(false);
        shrinkToFit();
    }
    QObject::disconnect(readyConnection_);
    tunnel_ = attachOverSsh(window_, target, &error);
    if (!tunnel_) {
        showStatus(error, false);
        return;
    }
    connect(tunnel_, &SshTunnel::stateChanged, this, &AttachDialog::onTunnelState);
    connect(tunnel_, &SshTunnel::hostKeyUnknown, this, &AttachDialog::onHostKeyUnknown);
    connect(tunnel_, &SshTunnel::engineUnreachable, this,
            [this](const QString& message) { showStatus(message, true); });
    readyConnection_ =
        connect(&window_.client(), &client::EngineClient::ready, this, &AttachDialog::onAttached);
    showStatus(tunnel_->statusText(), true);
}

void AttachDialog::onTunnelState(SshTunnel::State state, const QString& message) {
    const bool waiting = state == SshTunnel::State::Connecting ||
                         state == SshTunnel::State::Connected ||
                         state == SshTunnel::State::WaitingToRetry;
    showStatus(message, waiting);
}

void AttachDialog::onHostKeyUnknown(const QString& fingerprint, const QString& message) {
    showStatus(tr("Not attached: the server's host key is not known yet."), false);
    hostKeyText_->setText(tr("%1\n\nFingerprint: %2").arg(message, fingerprint));
    hostKeyPanel_->setVisible(true);
    growToFit();
}

void AttachDialog::growToFit() {
    // A window's minimum height ignores what wrapped labels need at its width, so the layout
    // squeezed every row (the key file's, the fingerprint's last line) instead of growing.
    layout()->activate();
    const int needed = layout()->totalHeightForWidth(width());
    if (needed > height()) {
        resize(width(), needed);
    }
}

void AttachDialog::shrinkToFit() {
    layout()->activate();
    resize(width(), layout()->totalHeightForWidth(width()));
}

void AttachDialog::trustShownKey() {
    if (!tunnel_) {
        return;
    }
    hostKeyPanel_->setVisible(false);
    shrinkToFit();
    tunnel_->trustHostKey(tunnel_->hostKeyFingerprint());
}

void AttachDialog::onAttached() {
    QObject::disconnect(readyConnection_);
    if (!tunnel_) {
        return;
    }
    remember(tunnel_->target());
    showStatus(tr("Attached to the engine on %1.").arg(tunnel_->target().toString()), false);
    accept();
}

void AttachDialog::remember(const SshTarget& target) {
    QSettings settings;
    QVariantList recent = settings.value(kRecentKey).toList();
    const QString server = target.toString();
    recent.erase(std::remove_if(recent.begin(), recent.end(),
                                [&](const QVariant& entry) {
                                    return entry.toMap().value("server").toString() == server;
                                }),
                 recent.end());
    recent.prepend(QVariantMap{{QStringLiteral("server"), server},
                               {QStringLiteral("key"), target.privateKeyFile},
                               {QStringLiteral("remote"), target.engine.toString()},
                               {QStringLiteral("tokenFile"), tokenFile_->text().trimmed()},
                               {QStringLiteral("knownHosts"), target.knownHostsFile}});
    while (recent.size() > kMaxRecentServers) {
        recent.removeLast();
    }
    settings.setValue(kRecentKey, recent);
}

}  // namespace tunedeck::app
