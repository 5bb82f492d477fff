// What the app's widget tests share: reaching a widget by its object name and typing into it as
// a user would, reading and writing the files a test works on, and saving a screenshot for
// people to look at when TUNEDECK_SCREENSHOT_DIR is set. Header-only; GUI thread only.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QLineEdit>
#include <QSize>
#include <QString>
#include <QWidget>

namespace app_test {

// The child of `parent` named `name`; a test that asks for one that is not there stops.
template <typename T>
T* child(QWidget& parent, const char* name) {
    T* found = parent.findChild<T*>(QLatin1String(name));
    if (!found) {
        qFatal("no %s", name);
    }
    return found;
}

// Types `text` into the line edit `name` and leaves it, as focus moving on would.
inline void typeLine(QWidget& parent, const char* name, const QString& text) {
    QLineEdit* edit = child<QLineEdit>(parent, name);
    edit->setText(text);
    emit edit->editingFinished();
}

inline QString readFile(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

inline bool writeFile(const QString& path, const QString& text) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(text.toUtf8()) == text.toUtf8().size();
}

// Saves `widget` (resized to `size` first, when given) as NAME.png in $TUNEDECK_SCREENSHOT_DIR.
inline void screenshot(QWidget& widget, const QString& name, const QSize& size = {}) {
    const QByteArray folder = qgetenv("TUNEDECK_SCREENSHOT_DIR");
    if (folder.isEmpty()) {
        return;
    }
    if (size.isValid()) {
        widget.resize(size);
    }
    widget.grab().save(QString::fromLocal8Bit(folder) + '/' + name + ".png");
}

}  // namespace app_test
