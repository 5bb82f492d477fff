#include "editors/cluster_connection_check.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QVBoxLayout>

#include "cluster/ssh/exec_channel.h"
#include "cluster/ssh/ssh_session.h"

namespace tunedeck::app {

namespace {

using State = NodeCheckResult::State;

// "Linux 6.1.0-18-amd64, 16 CPUs" from what kProbeCommand printed (uname, then nproc).
QString machineOf(const QByteArray& output) {
    const QStringList lines =
        QString::fromUtf8(output).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    bool isCount = false;
    const int cpus = lines.size() >= 2 ? lines[1].trimmed().toInt(&isCount) : 0;
    if (!isCount) {
        return lines.join(QStringLiteral(", ")).trimmed();
    }
    return ClusterConnectionCheck::tr("%1, %n CPU(s)", nullptr, cpus).arg(lines[0].trimmed());
}

// Appends `lines` to the known_hosts file `path` as OpenSSH would: a new ~/.ssh is private, and
// a last line without its line break gets one first.
bool appendKnownHosts(const QString& path, const QByteArray& lines, QString* error) {
    const QFileInfo info(path);
    if (!info.absoluteDir().exists()) {
        if (!QDir().mkpath(info.absolutePath())) {
            *error = ClusterConnectionCheck::tr("cannot create folder %1").arg(info.absolutePath());
            return false;
        }
        QFile::setPermissions(info.absolutePath(),
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadWrite | QIODevice::Append)) {
        *error = file.errorString();
        return false;
    }
    QByteArray text = lines;
    if (file.size() > 0) {
        file.seek(file.size() - 1);
        char last = '\n';
        file.getChar(&last);
        if (last != '\n') {
            text.prepend('\n');
        }
    }
    if (file.write(text) != text.size() || !file.flush()) {
        *error = file.errorString();
        return false;
    }
    return true;
}

}  // namespace

struct ClusterConnectionCheck::Node {
    ssh::SshEndpoint endpoint;
    // Deleted later, never from inside its own signal.
    ssh::SshSession* session = nullptr;
    ssh::ExecChannel* probe = nullptr;
    QElapsedTimer clock;
    QByteArray output;
    QTimer probeTimer;
    // Accepting: the fingerprint the user saw, and the copy of known_hosts that the session
    // writes the key into; only its new line is then appended to the real file.
    QString acceptFingerprint;
    std::unique_ptr<QTemporaryDir> scratch;
    qint64 scratchSize = 0;
};

ClusterConnectionCheck::ClusterConnectionCheck(QObject* parent) : QObject(parent) {}

ClusterConnectionCheck::~ClusterConnectionCheck() {
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        dropSession(int(i));
    }
}

void ClusterConnectionCheck::start(const ClusterSpec& cluster) {
    cancel();
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        dropSession(int(i));
    }
    nodes_.clear();
    results_.clear();
    knownHosts_ = cluster.knownHosts;
    if (cluster.provider == ClusterProvider::Local) {
        QTimer::singleShot(0, this, &ClusterConnectionCheck::finished);
        return;
    }
    for (const ClusterNodeSpec& spec : cluster.nodes) {
        auto node = std::make_unique<Node>();
        node->endpoint.host = spec.host;
        node->endpoint.port = spec.port;
        node->endpoint.user = cluster.sshUser;
        node->endpoint.privateKeyFile = cluster.sshPrivateKey;
        node->endpoint.knownHostsFile = cluster.knownHosts;
        node->endpoint.connectTimeoutMs = kTimeoutMs;
        node->endpoint.keepaliveIntervalS = 0;
        node->probeTimer.setSingleShot(true);
        nodes_.push_back(std::move(node));
        NodeCheckResult result;
        result.node = spec.name();
        results_ << result;
    }
    for (int i = 0; i < int(nodes_.size()); ++i) {
        connectNode(i, QString());
    }
}

void ClusterConnectionCheck::accept(int index) {
    if (index < 0 || index >= results_.size() || results_[index].state != State::HostKeyUnknown ||
        results_[index].fingerprint.isEmpty()) {
        return;
    }
    Node& node = *nodes_[index];
    node.scratch = std::make_unique<QTemporaryDir>();
    const QString copy = node.scratch->filePath(QStringLiteral("known_hosts"));
    QFile::copy(node.endpoint.knownHostsFile, copy);  // a missing file is an empty list
    node.scratchSize = QFileInfo(copy).size();
    connectNode(index, results_[index].fingerprint);
}

void ClusterConnectionCheck::cancel() {
    for (int i = 0; i < results_.size(); ++i) {
        if (!results_[i].isDone()) {
            results_[i].state = State::Failed;
            results_[i].message = tr("Cancelled.");
            finishNode(i);
        }
    }
}

bool ClusterConnectionCheck::isRunning() const {
    return std::any_of(results_.begin(), results_.end(),
                       [](const NodeCheckResult& result) { return !result.isDone(); });
}

void ClusterConnectionCheck::connectNode(int index, const QString& acceptFingerprint) {
    Node& node = *nodes_[index];
    NodeCheckResult& result = results_[index];
    result.state = State::Connecting;
    result.message.clear();
    result.machine.clear();
    result.loginMs = -1;
    node.acceptFingerprint = acceptFingerprint;
    ssh::SshEndpoint endpoint = node.endpoint;
    if (!acceptFingerprint.isEmpty()) {
        endpoint.knownHostsFile = node.scratch->filePath(QStringLiteral("known_hosts"));
        endpoint.acceptNewHostKey = true;
    }
    node.output.clear();
    node.session = new ssh::SshSession(endpoint);
    connect(node.session, &ssh::SshSession::connected, this, [this, index] { onConnected(index); });
    connect(node.session, &ssh::SshSession::failed, this,
            [this, index](const ssh::SshFailure& failure) {
                onFailed(index, int(failure.kind), failure.message);
            });
    connect(node.session, &ssh::SshSession::disconnected, this, [this, index](const QString& why) {
        onFailed(index, int(ssh::SshFailureKind::Disconnected), why);
    });
    node.clock.start();
    node.session->open();
    emit nodeChanged(index);
}

void ClusterConnectionCheck::onConnected(int index) {
    Node& node = *nodes_[index];
    NodeCheckResult& result = results_[index];
    result.loginMs = node.clock.elapsed();
    result.fingerprint = node.session->hostKeyFingerprint();
    if (!recordAcceptedKey(index)) {
        finishNode(index);
        return;
    }
    std::unique_ptr<ssh::ExecChannel> probe =
        node.session->exec(QString::fromLatin1(kProbeCommand));
    if (!probe) {
        result.state = State::Reachable;
        finishNode(index);
        return;
    }
    node.probe = probe.release();
    connect(node.probe, &ssh::ExecChannel::standardOutput, this,
            [this, index](const QByteArray& data) { nodes_[index]->output += data; });
    connect(node.probe, &ssh::ExecChannel::finished, this,
            [this, index](int exitStatus) { onProbeDone(index, exitStatus); });
    node.probeTimer.disconnect(this);
    connect(&node.probeTimer, &QTimer::timeout, this, [this, index] {
        results_[index].state = State::Reachable;
        results_[index].machine = tr("no answer to `%1` within %2 s")
                                      .arg(QString::fromLatin1(kProbeCommand))
                                      .arg(kTimeoutMs / 1000);
        finishNode(index);
    });
    node.probeTimer.start(kTimeoutMs);
    emit nodeChanged(index);
}

void ClusterConnectionCheck::onProbeDone(int index, int exitStatus) {
    NodeCheckResult& result = results_[index];
    result.state = State::Reachable;
    result.machine = exitStatus == 0 ? machineOf(nodes_[index]->output)
                                     : tr("`%1` failed (exit status %2)")
                                           .arg(QString::fromLatin1(kProbeCommand))
                                           .arg(exitStatus);
    finishNode(index);
}

void ClusterConnectionCheck::onFailed(int index, int kind, const QString& message) {
    Node& node = *nodes_[index];
    NodeCheckResult& result = results_[index];
    if (result.isDone()) {
        return;
    }
    if (!node.session->hostKeyFingerprint().isEmpty()) {
        result.fingerprint = node.session->hostKeyFingerprint();
    }
    // A key accepted and recorded before the login failed stays accepted.
    if (node.session->addedHostKey() && !recordAcceptedKey(index)) {
        finishNode(index);
        return;
    }
    switch (ssh::SshFailureKind(kind)) {
        case ssh::SshFailureKind::HostKeyUnknown:
            result.state = State::HostKeyUnknown;
            result.message =
                tr("The host key of %1 is not known yet: it presents %2. Compare it with the "
                   "host's own (ssh-keygen -lf on its public host key), then Accept it to add it "
                   "to %3.")
                    .arg(result.node, result.fingerprint, node.endpoint.knownHostsFile);
            break;
        case ssh::SshFailureKind::HostKeyChanged:
            result.state = State::HostKeyChanged;
            result.message = tr("Refused: the host key has changed. %1").arg(message);
            break;
        case ssh::SshFailureKind::AuthFailed:
            result.state = State::AuthFailed;
            result.message = tr("The login was refused: %1").arg(message);
            break;
        case ssh::SshFailureKind::Unreachable:
            result.state = State::Unreachable;
            result.message = tr("Unreachable: %1").arg(message);
            break;
        default:
            result.state = State::Failed;
            result.message = message;
            break;
    }
    finishNode(index);
}

bool ClusterConnectionCheck::recordAcceptedKey(int index) {
    Node& node = *nodes_[index];
    NodeCheckResult& result = results_[index];
    if (node.acceptFingerprint.isEmpty()) {
        return true;
    }
    const QString accepted = node.acceptFingerprint;
    node.acceptFingerprint.clear();
    const QString presented = node.session->hostKeyFingerprint();
    if (presented != accepted) {
        result.state = State::HostKeyChanged;
        result.fingerprint = presented;
        result.message = tr("Refused: the host now presents the key %1, not %2 that you accepted. "
                            "Nothing was written to %3.")
                             .arg(presented, accepted, node.endpoint.knownHostsFile);
        return false;
    }
    if (!node.session->addedHostKey()) {
        return true;  // known_hosts holds it by now
    }
    QFile copy(node.scratch->filePath(QStringLiteral("known_hosts")));
    QString error;
    if (!copy.open(QIODevice::ReadOnly) || !copy.seek(node.scratchSize) ||
        !appendKnownHosts(node.endpoint.knownHostsFile, copy.readAll().trimmed() + '\n', &error)) {
        result.state = State::Failed;
        result.message = tr("The host key %1 cannot be added to %2: %3")
                             .arg(accepted, node.endpoint.knownHostsFile, error);
        return false;
    }
    result.keyAccepted = true;
    return true;
}

void ClusterConnectionCheck::finishNode(int index) {
    dropSession(index);
    emit nodeChanged(index);
    if (!isRunning()) {
        emit finished();
    }
}

void ClusterConnectionCheck::dropSession(int index) {
    Node& node = *nodes_[index];
    node.probeTimer.stop();
    if (node.probe) {
        node.probe->disconnect(this);
        node.probe->close();
        node.probe->deleteLater();
        node.probe = nullptr;
    }
    if (node.session) {
        node.session->disconnect(this);
        if (node.session->isConnected()) {
            node.session->close();
        }
        node.session->deleteLater();
        node.session = nullptr;
    }
    node.scratch.reset();
}

// The view.

namespace {

enum Column { NodeColumn, ResultColumn, LoginColumn, KeyColumn, MachineColumn, AcceptColumn };

QString stateText(State state) {
    switch (state) {
        case State::Connecting:
            return ClusterConnectionView::tr("connecting…");
        case State::Reachable:
            return ClusterConnectionView::tr("reachable");
        case State::HostKeyUnknown:
            return ClusterConnectionView::tr("unknown host key");
        case State::HostKeyChanged:
            return ClusterConnectionView::tr("host key changed: refused");
        case State::AuthFailed:
            return ClusterConnectionView::tr("login refused");
        case State::Unreachable:
            return ClusterConnectionView::tr("unreachable");
        case State::Failed:
            return ClusterConnectionView::tr("failed");
    }
    return {};
}

QColor stateColour(State state) {
    switch (state) {
        case State::Reachable:
            return QColor(0x2e, 0x7d, 0x32);
        case State::Connecting:
        case State::HostKeyUnknown:
            return QColor(0xb2, 0x6a, 0x00);
        default:
            return QColor(0xc6, 0x28, 0x28);
    }
}

}  // namespace

ClusterConnectionView::ClusterConnectionView(ClusterConnectionCheck* check, QWidget* parent)
    : QWidget(parent), check_(check) {
    table_ = new QTableWidget(0, AcceptColumn + 1);
    table_->setObjectName(QStringLiteral("connectionResults"));
    table_->setHorizontalHeaderLabels(
        {tr("Node"), tr("Result"), tr("Login"), tr("Host key"), tr("Machine"), QString()});
    table_->setWordWrap(false);
    for (const Column column : {NodeColumn, ResultColumn, LoginColumn, AcceptColumn}) {
        table_->horizontalHeader()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    }
    table_->horizontalHeader()->setSectionResizeMode(KeyColumn, QHeaderView::Stretch);
    table_->horizontalHeader()->setSectionResizeMode(MachineColumn, QHeaderView::Stretch);
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    details_ = new QLabel;
    details_->setObjectName(QStringLiteral("connectionDetails"));
    details_->setWordWrap(true);
    details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(table_, 1);
    layout->addWidget(details_);
    connect(check_, &ClusterConnectionCheck::nodeChanged, this, &ClusterConnectionView::showNode);
    connect(check_, &ClusterConnectionCheck::finished, this, [this] {
        table_->setRowCount(int(check_->results().size()));
        showDetails();
    });
    connect(table_, &QTableWidget::itemSelectionChanged, this, &ClusterConnectionView::showDetails);
}

void ClusterConnectionView::showNode(int index) {
    const QList<NodeCheckResult>& results = check_->results();
    table_->setRowCount(int(results.size()));
    if (index < 0 || index >= results.size()) {
        return;
    }
    const NodeCheckResult& result = results[index];
    const QStringList cells{
        result.node, stateText(result.state),
        result.loginMs >= 0 ? tr("%1 ms").arg(result.loginMs) : QString(),
        result.fingerprint + (result.keyAccepted ? tr(" (accepted)") : QString()), result.machine};
    for (int column = 0; column < cells.size(); ++column) {
        auto* item = new QTableWidgetItem(cells[column]);
        item->setToolTip(result.message.isEmpty() ? cells[column] : result.message);
        if (column == ResultColumn) {
            item->setForeground(stateColour(result.state));
        }
        table_->setItem(index, column, item);
    }
    if (result.state == State::HostKeyUnknown) {
        auto* accept = new QPushButton(tr("Accept"));
        accept->setObjectName(QStringLiteral("acceptHostKey:") + result.node);
        accept->setToolTip(
            tr("Trust %1 for %2 and add it to known_hosts").arg(result.fingerprint, result.node));
        // Queued: accepting shows the row again, which deletes this button.
        connect(
            accept, &QPushButton::clicked, check_,
            [check = check_, index] { check->accept(index); }, Qt::QueuedConnection);
        table_->setCellWidget(index, AcceptColumn, accept);
    } else {
        table_->removeCellWidget(index, AcceptColumn);
    }
    showDetails();
}

QString ClusterConnectionView::details() const {
    return details_->text();
}

void ClusterConnectionView::showDetails() {
    const QList<NodeCheckResult>& results = check_->results();
    int row = table_->currentRow();
    if (row < 0 || row >= results.size()) {
        row = int(std::find_if(results.begin(), results.end(),
                               [](const NodeCheckResult& r) {
                                   return r.isDone() && r.state != State::Reachable;
                               }) -
                  results.begin());
    }
    details_->setText(row < results.size() ? results[row].message : QString());
}

}  // namespace tunedeck::app
