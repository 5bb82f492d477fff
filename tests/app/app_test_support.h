// What the app's widget tests share: reaching a widget by its object name and typing into it as
// a user would, reading and writing the files a test works on, and saving a screenshot for
// people to look at when TUNEDECK_SCREENSHOT_DIR is set. Header-only; GUI thread only.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QImage>
#include <QLineEdit>
#include <QPainter>
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

// The dark pixels in `rect` of a light picture: how much ink its text took (bold takes more).
inline int inkIn(const QImage& image, const QRect& rect) {
    int ink = 0;
    for (int y = std::max(0, rect.top()); y <= std::min(image.height() - 1, rect.bottom()); ++y) {
        for (int x = std::max(0, rect.left()); x <= std::min(image.width() - 1, rect.right());
             ++x) {
            ink += qGray(image.pixel(x, y)) < 128 ? 1 : 0;
        }
    }
    return ink;
}

// The ink of `text` drawn in `font`, black on white.
inline int inkOf(const QString& text, const QFont& font) {
    QImage image(QFontMetrics(font).horizontalAdvance(text) + 8, QFontMetrics(font).height() + 4,
                 QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setFont(font);
    painter.drawText(image.rect(), Qt::AlignCenter, text);
    painter.end();
    return inkIn(image, image.rect());
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
