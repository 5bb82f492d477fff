#include "editors/cluster_form.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QRegularExpressionValidator>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <functional>

#include "editors/cluster_autoscaling_box.h"
#include "editors/small_button.h"

namespace tunedeck::app {

namespace {

enum NodeColumn { RoleColumn, HostColumn, PortColumn, CpuColumn, GpuColumn, NodeColumns };
enum MountColumn { RemoteColumn, LocalColumn, MountColumns };

QVBoxLayout* buttonColumn(std::initializer_list<QToolButton*> buttons) {
    auto* column = new QVBoxLayout;
    column->setSpacing(0);
    for (QToolButton* button : buttons) {
        column->addWidget(button);
    }
    column->addStretch();
    return column;
}

QString cellText(const QTableWidget* table, int row, int column) {
    const QTableWidgetItem* item = table->item(row, column);
    return item ? item->text().trimmed() : QString();
}

void setCell(QTableWidget* table, int row, int column, const QString& text, bool editable) {
    auto* item = new QTableWidgetItem(text);
    if (!editable) {
        item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    }
    table->setItem(row, column, item);
}

// Picks `value` in a picker of known values, showing an unknown one as it is written.
void pickValue(QComboBox* picker, const QString& value, int knownCount, const QString& fallback) {
    const QSignalBlocker block(picker);
    while (picker->count() > knownCount) {
        picker->removeItem(picker->count() - 1);
    }
    int index = picker->findData(value.isEmpty() ? fallback : value);
    if (index < 0) {
        picker->addItem(ClusterForm::tr("%1 — not a known value").arg(value), value);
        index = picker->count() - 1;
    }
    picker->setCurrentIndex(index);
}

}  // namespace

// A list of strings edited row by row (double-click to edit), with buttons to add, remove and
// move rows. Reports the whole new list; the edit code keeps what did not change.
class StringListEditor : public QWidget {
  public:
    StringListEditor(const QString& name, const QString& newItem,
                     std::function<void(const QStringList&)> edited)
        : list_(new QListWidget), newItem_(newItem), edited_(std::move(edited)) {
        list_->setObjectName(name);
        list_->setEditTriggers(QAbstractItemView::DoubleClicked |
                               QAbstractItemView::EditKeyPressed |
                               QAbstractItemView::SelectedClicked);
        connect(list_, &QListWidget::itemChanged, this, [this] { commit(rows(), -1); });
        QToolButton* add =
            smallButton(QStringLiteral("+"), ClusterForm::tr("Add a row"), name + "Add");
        QToolButton* remove =
            smallButton(QStringLiteral("−"), ClusterForm::tr("Remove the row"), name + "Remove");
        QToolButton* up =
            smallButton(QStringLiteral("↑"), ClusterForm::tr("Move the row up"), name + "Up");
        QToolButton* down =
            smallButton(QStringLiteral("↓"), ClusterForm::tr("Move the row down"), name + "Down");
        connect(add, &QToolButton::clicked, this, [this] {
            QStringList items = shown_;
            const int at = list_->currentRow() >= 0 ? list_->currentRow() + 1 : int(items.size());
            items.insert(at, newItem_);
            commit(items, at);
        });
        connect(remove, &QToolButton::clicked, this, [this] {
            QStringList items = shown_;
            if (list_->currentRow() >= 0 && list_->currentRow() < items.size()) {
                items.removeAt(list_->currentRow());
                commit(items, -1);
            }
        });
        auto move = [this](int by) {
            QStringList items = shown_;
            const int from = list_->currentRow();
            if (from >= 0 && from + by >= 0 && from + by < items.size()) {
                items.move(from, from + by);
                commit(items, -1);
                list_->setCurrentRow(from + by);
            }
        };
        connect(up, &QToolButton::clicked, this, [move] { move(-1); });
        connect(down, &QToolButton::clicked, this, [move] { move(1); });
        auto* layout = new QHBoxLayout(this);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(list_, 1);
        layout->addLayout(buttonColumn({add, remove, up, down}));
    }

    void showItems(const QStringList& items) {
        shown_ = items;
        if (rows() != items) {
            const QSignalBlocker block(list_);
            const int current = list_->currentRow();
            list_->clear();
            for (const QString& text : items) {
                auto* item = new QListWidgetItem(text, list_);
                item->setFlags(item->flags() | Qt::ItemIsEditable);
            }
            list_->setCurrentRow(std::min(current, list_->count() - 1));
        }
        if (pendingEditRow_ >= 0 && pendingEditRow_ < list_->count()) {
            const int row = pendingEditRow_;
            QTimer::singleShot(0, list_, [this, row] {
                if (row < list_->count()) {
                    list_->setCurrentRow(row);
                    list_->editItem(list_->item(row));
                }
            });
        }
        pendingEditRow_ = -1;
    }

  private:
    QStringList rows() const {
        QStringList items;
        for (int row = 0; row < list_->count(); ++row) {
            items << list_->item(row)->text();
        }
        return items;
    }
    void commit(const QStringList& items, int editRow) {
        if (items != shown_) {
            pendingEditRow_ = editRow;
            edited_(items);
        }
    }

    QListWidget* list_;
    QString newItem_;
    std::function<void(const QStringList&)> edited_;
    QStringList shown_;
    int pendingEditRow_ = -1;  // a row just added, opened for typing once it is shown
};

ClusterForm::ClusterForm(QWidget* parent) : QWidget(parent) {
    banner_ = new QLabel;
    banner_->setObjectName(QStringLiteral("formBanner"));
    banner_->setWordWrap(true);
    banner_->setStyleSheet(
        QStringLiteral("QLabel { background: #fdecea; color: #8a1c1c; "
                       "padding: 6px; border-radius: 3px; }"));
    banner_->hide();

    auto* top = new QHBoxLayout;
    top->addWidget(clusterBox(), 1);
    top->addWidget(authBox(), 1);
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(commandsBox(), 1);
    bottom->addWidget(mountsBox(), 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(banner_);
    layout->addLayout(top);
    layout->addWidget(nodesBox(), 1);
    autoscaling_ =
        new ClusterAutoscalingBox([this](const std::optional<TextEdit>& edit) { request(edit); });
    layout->addWidget(autoscaling_, 1);
    layout->addLayout(bottom, 1);
}

QLineEdit* ClusterForm::lineEdit(ClusterField field, const char* objectName,
                                 const QString& placeholder) {
    auto* edit = new QLineEdit;
    edit->setObjectName(QLatin1String(objectName));
    edit->setPlaceholderText(placeholder);
    lines_.insert(field, edit);
    connect(edit, &QLineEdit::editingFinished, this, [this, field, edit] {
        const QString value = edit->text().trimmed();
        if (value != shown_.value(field)) {
            request(yaml_ ? clusterFieldEdit(*yaml_, field, value) : std::nullopt);
        }
    });
    return edit;
}

QWidget* ClusterForm::withBrowse(QLineEdit* edit, bool folder) {
    QToolButton* browse = smallButton(QStringLiteral("…"), tr("Choose a file"),
                                      edit->objectName() + QStringLiteral("Browse"));
    connect(browse, &QToolButton::clicked, this, [this, edit, folder] {
        const QString chosen = folder ? QFileDialog::getExistingDirectory(this, tr("Choose"))
                                      : QFileDialog::getOpenFileName(this, tr("Choose"));
        if (!chosen.isEmpty()) {
            edit->setText(chosen);
            emit edit->editingFinished();
        }
    });
    auto* cell = new QWidget;
    auto* row = new QHBoxLayout(cell);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(edit, 1);
    row->addWidget(browse);
    return cell;
}

QWidget* ClusterForm::clusterBox() {
    static const QRegularExpression number(QStringLiteral("[0-9]*\\.?[0-9]*"));
    provider_ = new QComboBox;
    provider_->setObjectName(QStringLiteral("provider"));
    provider_->addItem(tr("ssh — the nodes below, reached over SSH"), QStringLiteral("ssh"));
    provider_->addItem(tr("local — this machine only"), QStringLiteral("local"));
    provider_->addItem(tr("slurm — allocations the autoscaler asks Slurm for"),
                       QStringLiteral("slurm"));
    provider_->addItem(tr("command — nodes your own commands make (clouds, Kubernetes)"),
                       QStringLiteral("command"));
    connect(provider_, &QComboBox::activated, this, [this] {
        request(yaml_ ? clusterFieldEdit(*yaml_, ClusterField::Provider,
                                         provider_->currentData().toString())
                      : std::nullopt);
    });
    storage_ = new QComboBox;
    storage_->setObjectName(QStringLiteral("storage"));
    storage_->addItem(tr("copy — checkpoints travel to this machine over SFTP"),
                      QStringLiteral("copy"));
    storage_->addItem(tr("shared — every node sees the experiment folder (NFS)"),
                      QStringLiteral("shared"));
    connect(storage_, &QComboBox::activated, this, [this] {
        request(yaml_ ? clusterFieldEdit(*yaml_, ClusterField::Storage,
                                         storage_->currentData().toString())
                      : std::nullopt);
    });
    for (QComboBox* picker : {provider_, storage_}) {  // long captions must not widen the form
        picker->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        picker->setMinimumContentsLength(16);
    }
    QLineEdit* timeout = lineEdit(ClusterField::NodeTimeout, "nodeTimeout", tr("15"));
    QLineEdit* minWorkers = minWorkers_ = lineEdit(ClusterField::MinWorkers, "minWorkers", tr("0"));
    QLineEdit* maxWorkers = maxWorkers_ =
        lineEdit(ClusterField::MaxWorkers, "maxWorkers", tr("every worker listed"));
    QLineEdit* cpu = lineEdit(ClusterField::Cpu, "cpu", tr("what each node has"));
    QLineEdit* gpu = lineEdit(ClusterField::Gpu, "gpu", tr("what each node has"));
    for (QLineEdit* edit : {timeout, minWorkers, maxWorkers, cpu, gpu}) {
        edit->setValidator(new QRegularExpressionValidator(number, edit));
    }
    timeout->setToolTip(
        tr("A node whose agent is silent this long is lost; its trials fail over."));

    auto* box = new QGroupBox(tr("Cluster"));
    auto* form = new QFormLayout(box);
    form->addRow(tr("Name"), lineEdit(ClusterField::Name, "clusterName",
                                      tr("names the cluster's folder on every node")));
    form->addRow(tr("Provider"), provider_);
    form->addRow(tr("Storage"), storage_);
    form->addRow(tr("Node timeout (s)"), timeout);
    form->addRow(tr("Folder on the nodes"),
                 lineEdit(ClusterField::RemoteRoot, "remoteRoot", QStringLiteral("~/.tunedeck")));
    auto* workers = new QHBoxLayout;
    workers->addWidget(minWorkers);
    workers->addWidget(new QLabel(tr("to")));
    workers->addWidget(maxWorkers);
    form->addRow(tr("Workers"), workers);
    auto* resources = new QHBoxLayout;
    resources->addWidget(new QLabel(tr("CPUs")));
    resources->addWidget(cpu);
    resources->addWidget(new QLabel(tr("GPUs")));
    resources->addWidget(gpu);
    form->addRow(tr("Every node offers"), resources);
    return box;
}

QWidget* ClusterForm::authBox() {
    auto* box = new QGroupBox(tr("Login (auth)"));
    auto* form = new QFormLayout(box);
    form->addRow(tr("User"), lineEdit(ClusterField::User, "sshUser", tr("the same on every node")));
    form->addRow(tr("Private key"), withBrowse(lineEdit(ClusterField::PrivateKey, "sshPrivateKey",
                                                        tr("keys of ssh-agent")),
                                               false));
    QLineEdit* port = lineEdit(ClusterField::SshPort, "sshPort", QStringLiteral("22"));
    port->setValidator(new QRegularExpressionValidator(QRegularExpression("[0-9]*"), port));
    form->addRow(tr("Port"), port);
    form->addRow(tr("known_hosts"), withBrowse(lineEdit(ClusterField::KnownHosts, "knownHosts",
                                                        QStringLiteral("~/.ssh/known_hosts")),
                                               false));
    auto* note = new QLabel(tr("Relative paths start from the cluster file's folder."));
    note->setForegroundRole(QPalette::PlaceholderText);
    note->setWordWrap(true);
    form->addRow(note);
    sshOnly_ << box;
    return box;
}

QWidget* ClusterForm::nodesBox() {
    nodes_ = new QTableWidget(0, NodeColumns);
    nodes_->setObjectName(QStringLiteral("nodes"));
    nodes_->setHorizontalHeaderLabels({tr("Role"), tr("Host"), tr("Port"), tr("CPUs"), tr("GPUs")});
    nodes_->horizontalHeaderItem(PortColumn)->setToolTip(tr("Empty: the port of Login"));
    nodes_->horizontalHeaderItem(CpuColumn)->setToolTip(
        tr("Empty: what every node offers, else what the node has"));
    nodes_->horizontalHeader()->setSectionResizeMode(HostColumn, QHeaderView::Stretch);
    nodes_->verticalHeader()->hide();
    nodes_->setSelectionBehavior(QAbstractItemView::SelectRows);
    nodes_->setSelectionMode(QAbstractItemView::SingleSelection);
    connect(nodes_, &QTableWidget::itemChanged, this,
            [this](QTableWidgetItem* item) { onNodeChanged(item->row()); });
    QToolButton* add = smallButton(QStringLiteral("+"), tr("Add a worker node"), "addWorker");
    QToolButton* remove =
        smallButton(QStringLiteral("−"), tr("Remove the worker node"), "removeWorker");
    connect(add, &QToolButton::clicked, this, [this] {
        const std::optional<TextEdit> edit =
            yaml_ ? addWorkerEdit(*yaml_, ClusterNode{QStringLiteral("new-node"), {}, {}, {}})
                  : std::nullopt;
        request(edit);
        if (edit) {  // the new row is shown by now: open its host for typing
            nodes_->setCurrentCell(nodes_->rowCount() - 1, HostColumn);
            nodes_->editItem(nodes_->item(nodes_->rowCount() - 1, HostColumn));
        }
    });
    connect(remove, &QToolButton::clicked, this, [this] {
        if (yaml_ && nodes_->currentRow() >= 1) {
            request(removeWorkerEdit(*yaml_, nodes_->currentRow()));
        }
    });
    auto* box = new QGroupBox(tr("Nodes"));
    box->setToolTip(
        tr("The engine runs on this machine; every node listed, the head first, runs trials."));
    auto* row = new QHBoxLayout(box);
    row->addWidget(nodes_, 1);
    row->addLayout(buttonColumn({add, remove}));
    sshOnly_ << box;
    return box;
}

QWidget* ClusterForm::commandsBox() {
    auto* tabs = new QTabWidget;
    tabs->setObjectName(QStringLiteral("commandLists"));
    const struct {
        ClusterList list;
        const char* name;
        QString title;
        QString tip;
        QString newItem;
    } lists[] = {
        {ClusterList::InitializationCommands, "initializationCommands", tr("Initialization"),
         tr("Shell commands run first on every node"), QStringLiteral("echo ready")},
        {ClusterList::SetupCommands, "setupCommands", tr("Setup"),
         tr("Shell commands run on every node after the file mounts are copied"),
         QStringLiteral("echo ready")},
        {ClusterList::WorkerSetupCommands, "workerSetupCommands", tr("Worker setup"),
         tr("Shell commands run after the setup on every node but the head"),
         QStringLiteral("echo ready")},
        {ClusterList::RsyncExclude, "rsyncExclude", tr("Not copied"),
         tr("Patterns of paths in the file mounts that are not copied"), QStringLiteral("*.tmp")},
    };
    for (const auto& entry : lists) {
        const ClusterList list = entry.list;
        auto* editor = new StringListEditor(
            QLatin1String(entry.name), entry.newItem, [this, list](const QStringList& items) {
                request(yaml_ ? clusterListEdit(*yaml_, list, items) : std::nullopt);
            });
        editor->setToolTip(entry.tip);
        lists_.insert(list, editor);
        tabs->addTab(editor, entry.title);
    }
    auto* box = new QGroupBox(tr("Commands"));
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(tabs);
    return box;
}

QWidget* ClusterForm::mountsBox() {
    mounts_ = new QTableWidget(0, MountColumns);
    mounts_->setObjectName(QStringLiteral("fileMounts"));
    mounts_->setHorizontalHeaderLabels({tr("On the node"), tr("From this machine")});
    mounts_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    mounts_->verticalHeader()->hide();
    mounts_->setSelectionBehavior(QAbstractItemView::SelectRows);
    mounts_->setSelectionMode(QAbstractItemView::SingleSelection);
    connect(mounts_, &QTableWidget::itemChanged, this,
            [this](QTableWidgetItem* item) { onMountChanged(item->row()); });
    QToolButton* add = smallButton(QStringLiteral("+"), tr("Add a file mount"), "addMount");
    QToolButton* remove =
        smallButton(QStringLiteral("−"), tr("Remove the file mount"), "removeMount");
    connect(add, &QToolButton::clicked, this, [this] {
        if (!yaml_) {
            return;
        }
        QString remote = QStringLiteral("~/mount");
        for (int n = 2; std::any_of(shown_.mounts.begin(), shown_.mounts.end(),
                                    [&](const ClusterMount& m) { return m.remote == remote; });
             ++n) {
            remote = QStringLiteral("~/mount-%1").arg(n);
        }
        request(addMountEdit(*yaml_, ClusterMount{remote, QStringLiteral(".")}));
    });
    connect(remove, &QToolButton::clicked, this, [this] {
        if (yaml_ && mounts_->currentRow() >= 0) {
            request(removeMountEdit(*yaml_, mounts_->currentRow()));
        }
    });
    auto* box = new QGroupBox(tr("File mounts"));
    box->setToolTip(
        tr("Copied to every node before the setup commands; local paths start from "
           "the cluster file's folder."));
    auto* row = new QHBoxLayout(box);
    row->addWidget(mounts_, 1);
    row->addLayout(buttonColumn({add, remove}));
    return box;
}

void ClusterForm::request(const std::optional<TextEdit>& edit) {
    if (edit) {
        emit editsRequested({*edit});
    } else {
        showFields(shown_);
    }
}

void ClusterForm::showText(std::shared_ptr<const YamlText> yaml, const QString& why) {
    yaml_ = std::move(yaml);
    editable_ = yaml_ && yaml_->isParsed();
    banner_->setVisible(!editable_);
    banner_->setText(why);
    showFields(editable_ ? readClusterFields(*yaml_) : shown_);
}

void ClusterForm::showFields(const ClusterFields& fields) {
    shown_ = fields;
    for (auto it = lines_.begin(); it != lines_.end(); ++it) {
        if (it.value()->text() != fields.value(it.key())) {
            const QSignalBlocker block(it.value());
            it.value()->setText(fields.value(it.key()));
        }
    }
    const QString provider = fields.value(ClusterField::Provider);
    const bool local = provider == QLatin1String("local");
    const bool elastic = provider == QLatin1String("slurm") || provider == QLatin1String("command");
    pickValue(provider_, provider, 4, QString());
    // Slurm and command nodes see the experiment folder (shared, their only choice).
    pickValue(storage_, fields.value(ClusterField::Storage), 2,
              elastic ? QStringLiteral("shared") : QStringLiteral("copy"));
    for (auto it = lists_.begin(); it != lists_.end(); ++it) {
        it.value()->showItems(fields.list(it.key()));
    }
    showNodes();
    showMounts();
    for (QWidget* widget : findChildren<QWidget*>()) {
        if (widget != banner_ && widget->parentWidget() == this) {
            widget->setEnabled(editable_);
        }
    }
    for (QWidget* widget : sshOnly_) {
        widget->setEnabled(editable_ && !local);
        widget->setVisible(!elastic);
    }
    // An elastic cluster's size is its node types' and max_workers (min_workers is per type).
    minWorkers_->setEnabled(editable_ && !local && !elastic);
    for (ClusterField perType : {ClusterField::Cpu, ClusterField::Gpu}) {  // the types say it
        lines_.value(perType)->setEnabled(editable_ && !elastic);
    }
    maxWorkers_->setEnabled(editable_ && !local);
    maxWorkers_->setPlaceholderText(elastic ? tr("the node types' max workers added up")
                                            : tr("every worker listed"));
    autoscaling_->setVisible(elastic);
    autoscaling_->showText(editable_ ? yaml_.get() : nullptr, fields);
}

void ClusterForm::showNodes() {
    QList<QStringList> rows;
    for (int row = 0; row < shown_.nodes.size(); ++row) {
        const ClusterNode& node = shown_.nodes[row];
        rows << QStringList{row == 0 ? tr("head") : tr("worker"), node.host, node.port, node.cpu,
                            node.gpu};
    }
    QList<QStringList> listed;
    for (int row = 0; row < nodes_->rowCount(); ++row) {
        QStringList cells;
        for (int column = 0; column < NodeColumns; ++column) {
            cells << cellText(nodes_, row, column);
        }
        listed << cells;
    }
    if (listed == rows) {
        return;
    }
    const QSignalBlocker block(nodes_);
    nodes_->setRowCount(int(rows.size()));
    for (int row = 0; row < rows.size(); ++row) {
        for (int column = 0; column < NodeColumns; ++column) {
            setCell(nodes_, row, column, rows[row][column], column != RoleColumn);
        }
    }
    if (!shown_.hasHead && nodes_->item(0, RoleColumn)) {
        nodes_->item(0, RoleColumn)->setToolTip(tr("provider.head_ip is not written yet"));
    }
}

void ClusterForm::showMounts() {
    QList<QStringList> rows;
    for (const ClusterMount& mount : shown_.mounts) {
        rows << QStringList{mount.remote, mount.local};
    }
    QList<QStringList> listed;
    for (int row = 0; row < mounts_->rowCount(); ++row) {
        listed << QStringList{cellText(mounts_, row, RemoteColumn),
                              cellText(mounts_, row, LocalColumn)};
    }
    if (listed == rows) {
        return;
    }
    const QSignalBlocker block(mounts_);
    mounts_->setRowCount(int(rows.size()));
    for (int row = 0; row < rows.size(); ++row) {
        setCell(mounts_, row, RemoteColumn, rows[row][0], true);
        setCell(mounts_, row, LocalColumn, rows[row][1], true);
    }
}

void ClusterForm::onNodeChanged(int row) {
    if (!yaml_ || row < 0 || row >= shown_.nodes.size()) {
        return;
    }
    const ClusterNode node{cellText(nodes_, row, HostColumn), cellText(nodes_, row, PortColumn),
                           cellText(nodes_, row, CpuColumn), cellText(nodes_, row, GpuColumn)};
    if (node != shown_.nodes[row]) {
        request(nodeEdit(*yaml_, row, node));
    }
}

void ClusterForm::onMountChanged(int row) {
    if (!yaml_ || row < 0 || row >= shown_.mounts.size()) {
        return;
    }
    const ClusterMount mount{cellText(mounts_, row, RemoteColumn),
                             cellText(mounts_, row, LocalColumn)};
    if (mount != shown_.mounts[row]) {
        request(mountEdit(*yaml_, row, mount));
    }
}

}  // namespace tunedeck::app
