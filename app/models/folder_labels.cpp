#include "models/folder_labels.h"

#include <QDir>

namespace tunedeck::app {

namespace {

QStringList componentsOf(const QString& folder) {
    return QDir::cleanPath(QDir::fromNativeSeparators(folder)).split('/', Qt::SkipEmptyParts);
}

// The last `count` components, or all of them (a path from the root keeps its leading slash).
QString tailOf(const QString& folder, const QStringList& components, qsizetype count) {
    if (count >= components.size()) {
        return QDir::toNativeSeparators(QDir::cleanPath(folder));
    }
    return QDir::toNativeSeparators(components.mid(components.size() - count).join('/'));
}

bool sameTail(const QStringList& a, const QStringList& b, qsizetype count) {
    if (a.size() < count || b.size() < count) {
        return a.size() == b.size() && a == b;
    }
    for (qsizetype i = 1; i <= count; ++i) {
        if (a[a.size() - i] != b[b.size() - i]) {
            return false;
        }
    }
    return true;
}

}  // namespace

QStringList distinguishingFolderLabels(const QStringList& folders) {
    std::vector<QStringList> components;
    for (const QString& folder : folders) {
        components.push_back(componentsOf(folder));
    }
    QStringList labels;
    for (std::size_t i = 0; i < components.size(); ++i) {
        const QStringList& mine = components[i];
        qsizetype count = 1;
        for (std::size_t j = 0; j < components.size(); ++j) {
            if (components[j] == mine) {
                continue;  // the same folder: nothing can tell them apart, nor needs to
            }
            while (count < mine.size() && sameTail(mine, components[j], count)) {
                ++count;
            }
        }
        labels << tailOf(folders[int(i)], mine, count);
    }
    return labels;
}

}  // namespace tunedeck::app
