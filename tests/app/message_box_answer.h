// Answering the app's questions as a user would: the next message box that opens is read and
// one of its buttons clicked, from a timer, while the code under test waits in the box's own
// event loop. Header-only; GUI thread only.
#pragma once

#include <QAbstractButton>
#include <QApplication>
#include <QMessageBox>
#include <QPointer>
#include <QTimer>
#include <functional>

namespace app_test {

// Watches for the next message box and clicks the button whose text (without its `&`) is
// `button`; a box without that button is closed unanswered. What the box said and offered is
// kept for the test to check.
class MessageBoxAnswer : public QObject {
  public:
    // `look`, when given, sees the box before it is answered (the screenshot tour shoots it).
    explicit MessageBoxAnswer(QString button, std::function<void(QMessageBox*)> look = {})
        : button_(std::move(button)), look_(std::move(look)) {
        timer_.setInterval(20);
        connect(&timer_, &QTimer::timeout, this, [this] { answer(); });
        timer_.start();
    }

    // The same, by a standard button (Save, Discard, Cancel), whatever language it reads in.
    explicit MessageBoxAnswer(QMessageBox::StandardButton button,
                              std::function<void(QMessageBox*)> look = {})
        : MessageBoxAnswer(QString(), std::move(look)) {
        standard_ = button;
    }

    bool answered() const { return answered_; }
    int asked() const { return asked_; }
    // The box's title, its text and its buttons' texts, one a line.
    QString seen() const { return seen_; }
    QStringList buttons() const { return buttons_; }

  private:
    void answer() {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box || box == last_ || !box->isVisible()) {
            return;
        }
        last_ = box;
        ++asked_;
        seen_ = box->windowTitle() + '\n' + box->text();
        buttons_.clear();
        QAbstractButton* chosen = nullptr;
        for (QAbstractButton* b : box->buttons()) {
            const QString text = b->text().remove('&');
            buttons_ << text;
            const bool match = standard_ != QMessageBox::NoButton
                                   ? box->standardButton(b) == standard_
                                   : text == button_;
            chosen = match ? b : chosen;
        }
        if (chosen) {
            if (look_) {
                look_(box);
            }
            answered_ = true;
            timer_.stop();
            chosen->click();
        } else {
            // Another question than the test expects: closed unanswered, so that the test fails
            // on answered() and seen() instead of waiting in the box until ctest's timeout.
            timer_.stop();
            box->reject();
        }
    }

    QString button_;
    QMessageBox::StandardButton standard_ = QMessageBox::NoButton;
    std::function<void(QMessageBox*)> look_;
    QTimer timer_;
    QPointer<QMessageBox> last_;
    bool answered_ = false;
    int asked_ = 0;
    QString seen_;
    QStringList buttons_;
};

}  // namespace app_test
