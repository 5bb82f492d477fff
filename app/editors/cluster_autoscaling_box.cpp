#include "editors/cluster_autoscaling_box.h"

#include "editors/small_button.h"

#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QRegularExpressionValidator>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace tunedeck::app {

namespace {

enum TypeColumn { NameColumn, CpuColumn, GpuColumn, MinColumn, MaxColumn, ConfigColumn, Columns };

QString cell(const QTableWidget* table, int row, int column) {
    const QTableWidgetItem* item = table->item(row, column);
    return item ? item->text().trimmed() : QString();
}

}  // namespace

ClusterAutoscalingBox::ClusterAutoscalingBox(Request request, QWidget* parent)
    : QGroupBox(tr("Node types and autoscaling"), parent), request_(std::move(request)) {
    setObjectName(QStringLiteral("autoscaling"));
    static const QRegularExpression number(QStringLiteral("[0-9]*\\.?[0-9]*"));
    QLineEdit* speed =
        lineEdit(ClusterField::UpscalingSpeed, "upscalingSpeed", QStringLiteral("1"));
    speed->setToolTip(
        tr("Launches waiting to become ready at once: at most 5, or this many times the nodes up"));
    QLineEdit* idle =
        lineEdit(ClusterField::IdleTimeoutMinutes, "idleTimeout", QStringLiteral("5"));
    idle->setToolTip(
        tr("A node without trials this long is terminated (never below its type's "
           "min workers)"));
    for (QLineEdit* edit : {speed, idle}) {
        edit->setValidator(new QRegularExpressionValidator(number, edit));
    }
    auto* scaling = new QHBoxLayout;
    scaling->addWidget(new QLabel(tr("Upscaling speed")));
    scaling->addWidget(speed);
    scaling->addWidget(new QLabel(tr("Idle timeout (minutes)")));
    scaling->addWidget(idle);

    slurmOnly_ = new QWidget;
    auto* slurm = new QFormLayout(slurmOnly_);
    slurm->setContentsMargins(0, 0, 0, 0);
    slurm->addRow(
        tr("tunedeck-worker on the compute nodes"),
        lineEdit(ClusterField::WorkerPath, "workerPath", tr("tunedeck-worker, found in PATH")));

    commandOnly_ = new QWidget;
    auto* commands = new QFormLayout(commandOnly_);
    commands->setContentsMargins(0, 0, 0, 0);
    commands->addRow(tr("Create"), commandEdit(ClusterField::CreateCommand, "createCommand"));
    commands->addRow(tr("Terminate"),
                     commandEdit(ClusterField::TerminateCommand, "terminateCommand"));
    commands->addRow(tr("List"), commandEdit(ClusterField::ListCommand, "listCommand"));
    commands->addRow(tr("Connect"), commandEdit(ClusterField::ConnectCommand, "connectCommand"));
    commandOnly_->setToolTip(
        tr("Run as /bin/sh -c in the cluster file's folder; placeholders such as {node}, {id}, "
           "{address} and {node_config.KEY} are filled in"));

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(typesPart(), 1);
    layout->addLayout(scaling);
    layout->addWidget(slurmOnly_);
    layout->addWidget(commandOnly_);
}

QWidget* ClusterAutoscalingBox::typesPart() {
    table_ = new QTableWidget(0, Columns);
    table_->setObjectName(QStringLiteral("nodeTypes"));
    table_->setHorizontalHeaderLabels({tr("Node type"), tr("CPUs"), tr("GPUs"), tr("Min workers"),
                                       tr("Max workers"), tr("node_config")});
    table_->horizontalHeaderItem(MaxColumn)->setToolTip(tr("Empty: the cluster's max workers"));
    table_->horizontalHeaderItem(ConfigColumn)
        ->setToolTip(tr("A flow mapping: {partition: gpu, mem: 16G}"));
    table_->horizontalHeader()->setSectionResizeMode(ConfigColumn, QHeaderView::Stretch);
    table_->verticalHeader()->hide();
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setMinimumHeight(110);
    connect(table_, &QTableWidget::itemChanged, this,
            [this](QTableWidgetItem* item) { onTypeChanged(item->row()); });
    QToolButton* add =
        smallButton(QStringLiteral("+"), tr("Add a node type"), QStringLiteral("addNodeType"));
    QToolButton* remove = smallButton(QStringLiteral("−"), tr("Remove the node type"),
                                      QStringLiteral("removeNodeType"));
    connect(add, &QToolButton::clicked, this, [this] {
        if (!yaml_) {
            return;
        }
        QString name = QStringLiteral("new-type");
        for (int n = 2; std::any_of(types_.begin(), types_.end(),
                                    [&](const NodeTypeRow& type) { return type.name == name; });
             ++n) {
            name = QStringLiteral("new-type-%1").arg(n);
        }
        request_(addNodeTypeEdit(*yaml_, name));
    });
    connect(remove, &QToolButton::clicked, this, [this] {
        if (yaml_ && table_->currentRow() >= 0) {
            request_(removeNodeTypeEdit(*yaml_, table_->currentRow()));
        }
    });
    auto* buttons = new QVBoxLayout;
    buttons->setSpacing(0);
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch();
    auto* part = new QWidget;
    auto* row = new QHBoxLayout(part);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(table_, 1);
    row->addLayout(buttons);
    return part;
}

QLineEdit* ClusterAutoscalingBox::lineEdit(ClusterField field, const char* objectName,
                                           const QString& placeholder) {
    auto* edit = new QLineEdit;
    edit->setObjectName(QLatin1String(objectName));
    edit->setPlaceholderText(placeholder);
    lines_.insert(field, edit);
    connect(edit, &QLineEdit::editingFinished, this, [this, field, edit] {
        const QString value = edit->text().trimmed();
        if (value != fields_.value(field)) {
            request_(yaml_ ? clusterFieldEdit(*yaml_, field, value) : std::nullopt);
        }
    });
    return edit;
}

QPlainTextEdit* ClusterAutoscalingBox::commandEdit(ClusterField field, const char* objectName) {
    auto* edit = new QPlainTextEdit;
    edit->setObjectName(QLatin1String(objectName));
    edit->setLineWrapMode(QPlainTextEdit::WidgetWidth);  // no scroll bar to take a line
    edit->setTabChangesFocus(true);
    edit->setFixedHeight(edit->fontMetrics().lineSpacing() * 3 + 12);
    edit->installEventFilter(this);
    commands_.insert(field, edit);
    return edit;
}

bool ClusterAutoscalingBox::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::FocusOut) {
        if (auto* edit = qobject_cast<QPlainTextEdit*>(watched)) {
            commitCommand(edit);  // as a line edit's editingFinished
        }
    }
    return QGroupBox::eventFilter(watched, event);
}

void ClusterAutoscalingBox::commitCommand(QPlainTextEdit* edit) {
    const ClusterField field = commands_.key(edit);
    const QString value = edit->toPlainText();
    // A block scalar (`|`) ends with a line break the editor does not show apart.
    if (value.trimmed() != fields_.value(field).trimmed()) {
        request_(yaml_ ? clusterFieldEdit(*yaml_, field, value.trimmed()) : std::nullopt);
    }
}

void ClusterAutoscalingBox::showText(const YamlText* yaml, const ClusterFields& fields) {
    yaml_ = yaml;
    fields_ = fields;
    if (yaml_) {
        types_ = readNodeTypes(*yaml_);
    }
    for (auto it = lines_.begin(); it != lines_.end(); ++it) {
        if (it.value()->text() != fields.value(it.key())) {
            const QSignalBlocker block(it.value());
            it.value()->setText(fields.value(it.key()));
        }
    }
    for (auto it = commands_.begin(); it != commands_.end(); ++it) {
        if (it.value()->toPlainText().trimmed() != fields.value(it.key()).trimmed()) {
            it.value()->setPlainText(fields.value(it.key()).trimmed());
        }
    }
    const QString provider = fields.value(ClusterField::Provider);
    slurmOnly_->setVisible(provider == QLatin1String("slurm"));
    commandOnly_->setVisible(provider == QLatin1String("command"));

    const QSignalBlocker block(table_);
    table_->setRowCount(int(types_.size()));
    for (int row = 0; row < types_.size(); ++row) {
        const NodeTypeRow& type = types_[row];
        const QStringList cells{type.name,       type.cpu,        type.gpu,
                                type.minWorkers, type.maxWorkers, type.nodeConfig};
        for (int column = 0; column < Columns; ++column) {
            if (cell(table_, row, column) != cells[column] || !table_->item(row, column)) {
                table_->setItem(row, column, new QTableWidgetItem(cells[column]));
            }
        }
    }
}

void ClusterAutoscalingBox::onTypeChanged(int row) {
    if (!yaml_ || row < 0 || row >= types_.size()) {
        return;
    }
    const NodeTypeRow type{cell(table_, row, NameColumn), cell(table_, row, CpuColumn),
                           cell(table_, row, GpuColumn),  cell(table_, row, MinColumn),
                           cell(table_, row, MaxColumn),  cell(table_, row, ConfigColumn)};
    if (type != types_[row]) {
        request_(nodeTypeEdit(*yaml_, row, type));
    }
}

}  // namespace tunedeck::app
