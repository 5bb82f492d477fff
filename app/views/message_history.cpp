#include "views/message_history.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QMainWindow>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QStatusBar>
#include <QVBoxLayout>

namespace tunedeck::app {

namespace {

constexpr std::size_t kKept = 500;

QString lineOf(const MessageHistory::Entry& entry) {
    return entry.time.toString(QStringLiteral("HH:mm:ss")) + QStringLiteral("  ") + entry.text;
}

}  // namespace

MessageHistory::MessageHistory(QStatusBar* bar) : QObject(bar) {
    setObjectName(QStringLiteral("messageHistory"));
    connect(bar, &QStatusBar::messageChanged, this, [this, bar](const QString& message) {
        // The bar cuts a long message at its edge: the whole of it on hovering.
        bar->setToolTip(message);
        keep(message);
    });
}

void MessageHistory::keep(const QString& message) {
    // A cleared bar is not a message; the same message shown again (a progress line, a retry)
    // is one entry.
    if (message.isEmpty() || (!entries_.empty() && entries_.back().text == message)) {
        return;
    }
    entries_.push_back({QDateTime::currentDateTime(), message});
    if (entries_.size() > kKept) {
        entries_.pop_front();
    }
    emit added(entries_.back());
}

QString MessageHistory::text() const {
    QStringList lines;
    for (const Entry& entry : entries_) {
        lines << lineOf(entry);
    }
    return lines.join(QLatin1Char('\n'));
}

namespace {

// One window, raised when asked again; it follows new messages while open.
void openMessages(QMainWindow* window, MessageHistory* history) {
    if (auto* open = window->findChild<QDialog*>(QStringLiteral("messageHistoryDialog"))) {
        open->raise();
        open->activateWindow();
        return;
    }
    auto* dialog = new QDialog(window);
    dialog->setObjectName(QStringLiteral("messageHistoryDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(MessageHistory::tr("Messages"));
    auto* list = new QPlainTextEdit(dialog);
    list->setObjectName(QStringLiteral("messageHistoryText"));
    list->setReadOnly(true);
    const auto show = [list, history] {
        list->setPlainText(history->entries().empty() ? MessageHistory::tr("No message yet.")
                                                      : history->text());
        list->verticalScrollBar()->setValue(list->verticalScrollBar()->maximum());
    };
    QObject::connect(history, &MessageHistory::added, list, show);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    buttons->button(QDialogButtonBox::Close)->setText(MessageHistory::tr("Close"));
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(list);
    layout->addWidget(buttons);
    dialog->resize(720, 360);
    dialog->show();
    show();
}

}  // namespace

void addMessageHistory(QMainWindow* window, QMenu* view) {
    auto* history = new MessageHistory(window->statusBar());
    view->addAction(MessageHistory::tr("Messages..."), QKeySequence(MessageHistory::tr("Ctrl+L")),
                    window, [window, history] { openMessages(window, history); })
        ->setObjectName(QStringLiteral("showMessages"));
}

}  // namespace tunedeck::app
