#include "views/queue_dialog.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include "client/engine_client.h"

namespace tunedeck::app {

namespace {

constexpr int kRefreshMs = 2000;

QTableWidgetItem* cell(const QString& text, Qt::Alignment alignment = Qt::AlignLeft) {
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(alignment | Qt::AlignVCenter);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return item;
}

}  // namespace

QueueDialog::QueueDialog(client::EngineClient& client, QWidget* parent)
    : QDialog(parent), client_(client) {
    setWindowTitle(tr("Engine queue"));
    setObjectName(QStringLiteral("queueDialog"));
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("queueSummary"));
    summary_->setWordWrap(true);
    table_ = new QTableWidget(0, 7, this);
    table_->setObjectName(QStringLiteral("queueTable"));
    table_->setHorizontalHeaderLabels({tr("Experiment"), tr("User"), tr("Priority"), tr("Running"),
                                       tr("May run"), tr("Wanted"), tr("Waits because")});
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    auto* note = new QLabel(
        tr("Experiments the engine runs on its machine share it by priority, then fairly among "
           "equal priorities. May run is how many trials an experiment may run at once now; "
           "nothing running is stopped to make room, so Running can be above it for a while."),
        this);
    note->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(summary_);
    layout->addWidget(table_, 1);
    layout->addWidget(note);
    resize(880, 360);
    timer_.setInterval(kRefreshMs);
    connect(&timer_, &QTimer::timeout, this, &QueueDialog::refresh);
}

void QueueDialog::showEvent(QShowEvent* event) {
    QDialog::showEvent(event);
    refresh();
    timer_.start();
}

void QueueDialog::hideEvent(QHideEvent* event) {
    timer_.stop();
    QDialog::hideEvent(event);
}

void QueueDialog::refresh() {
    client_.queue([this](const Status& status, const api::QueueAnswer& queue) {
        if (!status) {
            summary_->setText(
                tr("The engine did not answer with its queue: %1").arg(status.message()));
            table_->setRowCount(0);
            return;
        }
        display(queue);
    });
}

void QueueDialog::display(const api::QueueAnswer& queue) {
    summary_->setText(tr("In use: %1 of %2 CPUs, %3 of %4 GPUs")
                          .arg(queue.cpuInUse)
                          .arg(queue.cpu)
                          .arg(queue.gpuInUse)
                          .arg(queue.gpu));
    table_->setRowCount(int(queue.experiments.size()));
    for (int row = 0; row < table_->rowCount(); ++row) {
        const api::QueueEntry& e = queue.experiments[std::size_t(row)];
        table_->setItem(row, 0, cell(e.experiment));
        table_->setItem(row, 1, cell(e.user));
        table_->setItem(row, 2, cell(QString::number(e.priority), Qt::AlignRight));
        table_->setItem(row, 3, cell(QString::number(e.running), Qt::AlignRight));
        table_->setItem(row, 4, cell(QString::number(e.allowed), Qt::AlignRight));
        table_->setItem(row, 5, cell(QString::number(e.wanted), Qt::AlignRight));
        table_->setItem(row, 6, cell(e.why));
    }
}

}  // namespace tunedeck::app
