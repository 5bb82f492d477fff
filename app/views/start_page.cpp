#include "views/start_page.h"

#include <QApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QSettings>
#include <QStandardPaths>
#include <QStyledItemDelegate>
#include <QVBoxLayout>

namespace tunedeck::app {

namespace {

constexpr int kRecentLimit = 10;
constexpr int kPathRole = Qt::UserRole;
constexpr int kFolderRole = Qt::UserRole + 1;

// A template's row: its title in bold, its description in plain text wrapped under it (the
// item's text, "title\ndescription"; a row without a description is drawn as it is).
class TemplateDelegate : public QStyledItemDelegate {
  public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override {
        QStyleOptionViewItem row(option);
        initStyleOption(&row, index);
        const QString text = index.data(Qt::DisplayRole).toString();  // row.text has no '\n'
        row.text.clear();
        const QStyle* style = row.widget ? row.widget->style() : QApplication::style();
        style->drawControl(QStyle::CE_ItemViewItem, &row, painter, row.widget);
        painter->save();
        painter->setPen(row.palette.color(
            row.state & QStyle::State_Selected ? QPalette::HighlightedText : QPalette::Text));
        const QRect room = row.rect.adjusted(kPadding, 0, -kPadding, 0);
        const QFont title = titleFont(row.font);
        const int titleHeight = QFontMetrics(title).height();
        painter->setFont(title);
        painter->drawText(QRect(room.left(), room.top(), room.width(), titleHeight),
                          Qt::AlignLeft | Qt::AlignVCenter,
                          QFontMetrics(title).elidedText(text.section(QLatin1Char('\n'), 0, 0),
                                                         Qt::ElideRight, room.width()));
        painter->setFont(row.font);
        painter->drawText(room.adjusted(0, titleHeight, 0, 0), Qt::TextWordWrap,
                          text.section(QLatin1Char('\n'), 1));
        painter->restore();
    }

    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override {
        QStyleOptionViewItem row(option);
        initStyleOption(&row, index);
        const auto* view = qobject_cast<const QAbstractItemView*>(row.widget);
        const int width = std::max(100, (view ? view->viewport()->width() : 400) - 2 * kPadding);
        const QString description =
            index.data(Qt::DisplayRole).toString().section(QLatin1Char('\n'), 1);
        const int lines = description.isEmpty() ? 0
                                                : QFontMetrics(row.font)
                                                      .boundingRect(QRect(0, 0, width, 100000),
                                                                    Qt::TextWordWrap, description)
                                                      .height();
        return {width, QFontMetrics(titleFont(row.font)).height() + lines + 2};
    }

  private:
    static constexpr int kPadding = 3;
    static QFont titleFont(QFont font) {
        font.setBold(true);
        return font;
    }
};

QString recentKey(RecentKind kind) {
    return kind == RecentKind::File ? QStringLiteral("recent/files")
                                    : QStringLiteral("recent/folders");
}

// The paragraphs of the file's leading comment (split at its blank comment lines), without
// the "Run it with" line.
QStringList leadingComment(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        return {};
    }
    QStringList paragraphs;
    QStringList lines;
    const auto endParagraph = [&] {
        if (!lines.isEmpty()) {
            paragraphs << lines.join(' ');
            lines.clear();
        }
    };
    while (!file.atEnd()) {
        const QString line = QString::fromUtf8(file.readLine()).trimmed();
        if (!line.startsWith('#')) {
            break;
        }
        const QString text = line.mid(1).trimmed();
        if (text.isEmpty()) {
            endParagraph();
        } else if (!text.startsWith(QLatin1String("Run it with"))) {
            lines << text;
        }
    }
    endParagraph();
    return paragraphs;
}

// What the template list shows of a comment's first paragraph: whole when short, else its
// sentences up to about three lines of the list (the whole comment is the item's tooltip).
QString summaryOf(const QString& paragraph) {
    constexpr qsizetype kMost = 300;
    if (paragraph.size() <= kMost) {
        return paragraph;
    }
    const qsizetype end = paragraph.left(kMost).lastIndexOf(QLatin1String(". "));
    return end > 0 ? paragraph.left(end + 1) : paragraph.left(kMost - 1) + QChar(0x2026);
}

bool copyFolder(const QString& from, const QString& to, QString* error) {
    if (!QDir().mkpath(to)) {
        *error = StartPage::tr("cannot create %1").arg(to);
        return false;
    }
    QDirIterator it(from, QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString source = it.next();
        const QString target = QDir(to).filePath(QDir(from).relativeFilePath(source));
        if (it.fileInfo().isDir()) {
            QDir().mkpath(target);
        } else if (!QFile::copy(source, target)) {
            *error = StartPage::tr("cannot copy %1 to %2").arg(source, target);
            return false;
        }
        // Installed templates are read-only; the user's copy is theirs to edit.
        QFile(target).setPermissions(QFile(target).permissions() | QFileDevice::WriteOwner);
    }
    return true;
}

QString freeName(const QString& parent, const QString& name) {
    QString candidate = name;
    for (int n = 2; QFileInfo::exists(QDir(parent).filePath(candidate)); ++n) {
        candidate = QStringLiteral("%1-%2").arg(name).arg(n);
    }
    return candidate;
}

// `path` with the home folder written as ~, as a file manager shows it.
QString homeShortened(const QString& path) {
    const QString home = QDir::homePath();
    return path == home || path.startsWith(home + '/') ? '~' + path.mid(home.size()) : path;
}

}  // namespace

QString examplesFolder() {
    const QString fromEnvironment = qEnvironmentVariable("TUNEDECK_EXAMPLES_DIR");
    QStringList candidates;
    if (!fromEnvironment.isEmpty()) {
        candidates << fromEnvironment;
    }
    candidates << QDir(QApplication::applicationDirPath())
                      .absoluteFilePath(QStringLiteral("../share/tunedeck/examples"));
#ifdef TUNEDECK_EXAMPLES_SOURCE_DIR
    candidates << QStringLiteral(TUNEDECK_EXAMPLES_SOURCE_DIR);
#endif
    for (const QString& candidate : candidates) {
        if (QFileInfo(candidate).isDir()) {
            return QDir(candidate).canonicalPath();
        }
    }
    return {};
}

bool isClusterFile(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        return false;
    }
    while (!file.atEnd()) {
        if (file.readLine().startsWith("cluster_name:")) {
            return true;
        }
    }
    return false;
}

QList<ExperimentTemplate> listTemplates(const QString& examplesFolder) {
    QList<ExperimentTemplate> templates;
    if (examplesFolder.isEmpty()) {
        return templates;
    }
    const QDir root(examplesFolder);
    for (const QString& folder : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        const QDir dir(root.filePath(folder));
        const QStringList files = dir.entryList({QStringLiteral("*.yaml"), QStringLiteral("*.yml")},
                                                QDir::Files, QDir::Name);
        for (const QString& file : files) {
            const QString stem = QFileInfo(file).completeBaseName();
            ExperimentTemplate t;
            t.path = dir.filePath(file);
            t.title = files.size() == 1 || stem == QLatin1String("experiment")
                          ? folder
                          : QStringLiteral("%1 / %2").arg(folder, stem);
            const QStringList paragraphs = leadingComment(t.path);
            t.description = summaryOf(paragraphs.value(0));
            t.comment = paragraphs.join(QStringLiteral("\n\n"));
            t.cluster = isClusterFile(t.path);
            templates << t;
        }
    }
    return templates;
}

QString copyTemplate(const ExperimentTemplate& chosen, const QString& destinationParent,
                     QString* error) {
    const QFileInfo file(chosen.path);
    const QDir source = file.absoluteDir();
    const QString name = freeName(destinationParent, source.dirName());
    const QString target = QDir(destinationParent).filePath(name);
    if (!copyFolder(source.absolutePath(), target, error)) {
        return {};
    }
    // Siblings the template's files use (`../quickstart/train.py`), unless already there.
    static const QRegularExpression sibling(QStringLiteral(R"(\.\./([A-Za-z0-9_.-]+)/)"));
    QSet<QString> siblings;
    for (const QString& f : source.entryList(QDir::Files)) {
        QFile text(source.filePath(f));
        if (text.open(QIODevice::ReadOnly)) {
            auto matches = sibling.globalMatch(QString::fromUtf8(text.readAll()));
            while (matches.hasNext()) {
                siblings.insert(matches.next().captured(1));
            }
        }
    }
    QDir parentOfSource = source;
    parentOfSource.cdUp();
    for (const QString& s : siblings) {
        const QString from = parentOfSource.filePath(s);
        const QString to = QDir(destinationParent).filePath(s);
        if (QFileInfo(from).isDir() && !QFileInfo::exists(to) && !copyFolder(from, to, error)) {
            return {};
        }
    }
    return QDir(target).filePath(file.fileName());
}

void rememberRecent(RecentKind kind, const QString& path) {
    QSettings settings;
    QStringList items = settings.value(recentKey(kind)).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    items.removeAll(absolute);
    items.prepend(absolute);
    while (items.size() > kRecentLimit) {
        items.removeLast();
    }
    settings.setValue(recentKey(kind), items);
}

QStringList recentItems(RecentKind kind) {
    QStringList items;
    for (const QString& path : QSettings().value(recentKey(kind)).toStringList()) {
        if (QFileInfo::exists(path)) {
            items << path;
        }
    }
    return items;
}

StartPage::StartPage(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("startPage"));
    auto* title =
        new QLabel(tr("<h2>Tunedeck</h2>Start from a template, open a past experiment "
                      "or attach to an engine on a server."));
    title->setWordWrap(true);

    auto* openFile = new QPushButton(tr("Open experiment file..."));
    auto* openFolderButton = new QPushButton(tr("Open experiment folder..."));
    auto* attach = new QPushButton(tr("Attach to a server over SSH..."));
    connect(openFile, &QPushButton::clicked, this, &StartPage::openFileRequested);
    connect(openFolderButton, &QPushButton::clicked, this, &StartPage::openFolderRequested);
    connect(attach, &QPushButton::clicked, this, &StartPage::attachRequested);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(openFile);
    buttons->addWidget(openFolderButton);
    buttons->addWidget(attach);
    buttons->addStretch();

    templateList_ = new QListWidget;
    templateList_->setObjectName(QStringLiteral("templates"));
    templateList_->setWordWrap(true);
    templateList_->setAlternatingRowColors(true);
    templateList_->setResizeMode(QListView::Adjust);  // the rows' wrapped heights follow the width
    templateList_->setItemDelegate(new TemplateDelegate(templateList_));
    templates_ = listTemplates(examplesFolder());
    for (const ExperimentTemplate& t : templates_) {
        const QString title = t.cluster ? tr("%1 (cluster file)").arg(t.title) : t.title;
        auto* item = new QListWidgetItem(QStringLiteral("%1\n%2").arg(title, t.description));
        item->setToolTip(QStringLiteral("%1\n\n%2").arg(t.comment, t.path));
        templateList_->addItem(item);
    }
    if (templates_.isEmpty()) {
        templateList_->addItem(tr("No examples found (set TUNEDECK_EXAMPLES_DIR)."));
    }
    connect(templateList_, &QListWidget::itemActivated, this, [this] { useTemplate(); });
    auto* useButton = new QPushButton(tr("New experiment from template..."));
    connect(useButton, &QPushButton::clicked, this, &StartPage::useTemplate);

    recentList_ = new QListWidget;
    recentList_->setObjectName(QStringLiteral("recent"));
    recentList_->setTextElideMode(Qt::ElideMiddle);  // a long path keeps both of its ends
    connect(recentList_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        const QString path = item->data(kPathRole).toString();
        if (path.isEmpty()) {
            return;
        }
        if (item->data(kFolderRole).toBool()) {
            emit openFolder(path);
        } else {
            edit(path);
        }
    });

    auto* templatesColumn = new QVBoxLayout;
    templatesColumn->addWidget(new QLabel(tr("<b>Templates</b>")));
    templatesColumn->addWidget(templateList_, 1);
    templatesColumn->addWidget(useButton, 0, Qt::AlignLeft);
    auto* recentColumn = new QVBoxLayout;
    recentColumn->addWidget(new QLabel(tr("<b>Recent experiments</b>")));
    recentColumn->addWidget(recentList_, 1);
    auto* columns = new QHBoxLayout;
    columns->addLayout(templatesColumn, 3);
    columns->addLayout(recentColumn, 2);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(title);
    layout->addLayout(buttons);
    layout->addLayout(columns, 1);
    refresh();
}

void StartPage::refresh() {
    recentList_->clear();
    const auto add = [this](const QString& path, bool folder) {
        const QFileInfo info(path);
        // A file by its folder too: every template's file is experiment.yaml.
        const QDir where = folder ? info.absoluteDir() : QFileInfo(info.absolutePath()).dir();
        const QString name =
            folder ? info.fileName() : info.absoluteDir().dirName() + '/' + info.fileName();
        auto* item = new QListWidgetItem(
            folder ? tr("%1  (results in %2)").arg(name, homeShortened(where.absolutePath()))
                   : tr("%1  (file in %2)").arg(name, homeShortened(where.absolutePath())));
        item->setData(kPathRole, path);
        item->setData(kFolderRole, folder);
        item->setToolTip(path);
        recentList_->addItem(item);
    };
    for (const QString& path : recentItems(RecentKind::File)) {
        add(path, false);
    }
    for (const QString& path : recentItems(RecentKind::Folder)) {
        add(path, true);
    }
    if (recentList_->count() == 0) {
        recentList_->addItem(tr("Nothing yet: experiments you run, edit or open appear here."));
    }
}

void StartPage::useTemplate() {
    const int row = templateList_->currentRow();
    if (row < 0 || row >= templates_.size()) {
        return;
    }
    const QString defaultParent =
        QDir(QStandardPaths::writableLocation(QStandardPaths::HomeLocation))
            .filePath(QStringLiteral("tunedeck-experiments"));
    QDir().mkpath(defaultParent);
    const QString parent = QFileDialog::getExistingDirectory(
        this, tr("Where should the new experiment go?"), defaultParent);
    if (parent.isEmpty()) {
        return;
    }
    QString error;
    const QString copy = copyTemplate(templates_[row], parent, &error);
    if (copy.isEmpty()) {
        QMessageBox::warning(this, tr("New experiment"), error);
        return;
    }
    rememberRecent(RecentKind::File, copy);
    refresh();
    edit(copy);
}

void StartPage::edit(const QString& path) {
    if (isClusterFile(path)) {
        emit editClusterFile(path);
    } else {
        emit editFile(path);
    }
}

}  // namespace tunedeck::app
