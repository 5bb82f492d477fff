#include "core/folder_name.h"

#include <QRegularExpression>

namespace tunedeck {

QString folderNameProblem(const QString& name) {
    static const QRegularExpression valid(QStringLiteral("^[A-Za-z0-9_][A-Za-z0-9_.-]*$"));
    if (name.isEmpty()) {
        return QStringLiteral("the name is empty (use letters, digits, '_', '.' and '-')");
    }
    if (name.size() > kMaxFolderNameLength) {
        return QStringLiteral("'%1...' is not a valid name (at most %2 characters)")
            .arg(name.left(40))
            .arg(kMaxFolderNameLength);
    }
    if (!valid.match(name).hasMatch()) {
        return QStringLiteral(
                   "'%1' is not a valid name (use letters, digits, '_', '.' and '-', "
                   "not starting with '.' or '-')")
            .arg(name);
    }
    return QString();
}

}  // namespace tunedeck
