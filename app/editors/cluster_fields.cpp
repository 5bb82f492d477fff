#include "editors/cluster_fields.h"

#include <functional>

namespace tunedeck::app {

namespace {

const QString kProvider = QStringLiteral("provider");
const QStringList kHead{kProvider, QStringLiteral("head_ip")};
const QStringList kWorkers{kProvider, QStringLiteral("worker_ips")};
const QStringList kMounts{QStringLiteral("file_mounts")};

QStringList pathOf(ClusterField field) {
    switch (field) {
        case ClusterField::Name:
            return {QStringLiteral("cluster_name")};
        case ClusterField::Provider:
            return {kProvider, QStringLiteral("type")};
        case ClusterField::User:
            return {QStringLiteral("auth"), QStringLiteral("ssh_user")};
        case ClusterField::PrivateKey:
            return {QStringLiteral("auth"), QStringLiteral("ssh_private_key")};
        case ClusterField::SshPort:
            return {QStringLiteral("auth"), QStringLiteral("ssh_port")};
        case ClusterField::KnownHosts:
            return {QStringLiteral("auth"), QStringLiteral("known_hosts")};
        case ClusterField::MinWorkers:
            return {QStringLiteral("min_workers")};
        case ClusterField::MaxWorkers:
            return {QStringLiteral("max_workers")};
        case ClusterField::Cpu:
            return {QStringLiteral("resources"), QStringLiteral("cpu")};
        case ClusterField::Gpu:
            return {QStringLiteral("resources"), QStringLiteral("gpu")};
        case ClusterField::Storage:
            return {QStringLiteral("storage")};
        case ClusterField::NodeTimeout:
            return {QStringLiteral("node_timeout_s")};
        case ClusterField::RemoteRoot:
            return {QStringLiteral("remote_root")};
        case ClusterField::UpscalingSpeed:
            return {QStringLiteral("upscaling_speed")};
        case ClusterField::IdleTimeoutMinutes:
            return {QStringLiteral("idle_timeout_minutes")};
        case ClusterField::WorkerPath:
            return {kProvider, QStringLiteral("worker_path")};
        case ClusterField::CreateCommand:
            return {kProvider, QStringLiteral("create")};
        case ClusterField::TerminateCommand:
            return {kProvider, QStringLiteral("terminate")};
        case ClusterField::ListCommand:
            return {kProvider, QStringLiteral("list")};
        case ClusterField::ConnectCommand:
            return {kProvider, QStringLiteral("connect")};
    }
    return {};
}

bool isNumber(ClusterField field) {
    switch (field) {
        case ClusterField::SshPort:
        case ClusterField::MinWorkers:
        case ClusterField::MaxWorkers:
        case ClusterField::Cpu:
        case ClusterField::Gpu:
        case ClusterField::NodeTimeout:
        case ClusterField::UpscalingSpeed:
        case ClusterField::IdleTimeoutMinutes:
            return true;
        default:
            return false;
    }
}

QStringList pathOf(ClusterList list) {
    switch (list) {
        case ClusterList::InitializationCommands:
            return {QStringLiteral("initialization_commands")};
        case ClusterList::SetupCommands:
            return {QStringLiteral("setup_commands")};
        case ClusterList::WorkerSetupCommands:
            return {QStringLiteral("worker_setup_commands")};
        case ClusterList::RsyncExclude:
            return {QStringLiteral("rsync_exclude")};
    }
    return {};
}

// A number as typed; anything else as a string, so the loader names the mistake.
QString numberText(const QString& value, bool inFlow) {
    return looksLikeYamlNumber(value) ? value : yamlString(value, inFlow);
}

QString listText(const QStringList& items) {
    QStringList written;
    for (const QString& item : items) {
        written << yamlString(item, true);
    }
    return QLatin1Char('[') + written.join(QStringLiteral(", ")) + QLatin1Char(']');
}

// One edit from `before` to `after`: what lies between their common start and end.
std::optional<TextEdit> difference(const QString& before, const QString& after) {
    if (before == after) {
        return std::nullopt;
    }
    qsizetype prefix = 0;
    const qsizetype shorter = std::min(before.size(), after.size());
    while (prefix < shorter && before[prefix] == after[prefix]) {
        ++prefix;
    }
    qsizetype suffix = 0;
    while (suffix < shorter - prefix &&
           before[before.size() - 1 - suffix] == after[after.size() - 1 - suffix]) {
        ++suffix;
    }
    return TextEdit{prefix, before.size() - suffix,
                    after.mid(prefix, after.size() - suffix - prefix)};
}

// Several edits, each computed on the text the previous one left, as one edit of `yaml`.
using Step = std::function<std::optional<TextEdit>(const YamlText&)>;
std::optional<TextEdit> chain(const YamlText& yaml, const QList<Step>& steps) {
    if (!yaml.isParsed()) {
        return std::nullopt;
    }
    QString text = yaml.text();
    for (const Step& step : steps) {
        const YamlText current(text);
        const std::optional<TextEdit> edit = step(current);
        if (!edit) {
            return std::nullopt;
        }
        text = applyEdits(text, {*edit});
    }
    return difference(yaml.text(), text);
}

// "host:port" is quoted, as SCHEMA.md writes it, so no reader takes it for anything else.
QString quotedHostPort(const QString& host, const QString& port) {
    const QString entry = host + QLatin1Char(':') + port;
    const QString written = yamlString(entry, true);
    if (written.startsWith(QLatin1Char('"'))) {
        return written;
    }
    QString escaped = entry;
    escaped.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
    escaped.replace(QLatin1Char('"'), QStringLiteral("\\\""));
    return QLatin1Char('"') + escaped + QLatin1Char('"');
}

bool needsMapping(const ClusterNode& node) {
    return !node.cpu.isEmpty() || !node.gpu.isEmpty();
}

// A node entry as YAML: the short forms while they can say it, else a flow mapping.
QString nodeText(const ClusterNode& node, bool inFlow) {
    if (!needsMapping(node)) {
        return node.port.isEmpty() ? yamlString(node.host, inFlow)
                                   : quotedHostPort(node.host, node.port);
    }
    QStringList parts{QStringLiteral("host: ") + yamlString(node.host, true)};
    if (!node.port.isEmpty()) {
        parts << QStringLiteral("port: ") + numberText(node.port, true);
    }
    QStringList resources;
    if (!node.cpu.isEmpty()) {
        resources << QStringLiteral("cpu: ") + numberText(node.cpu, true);
    }
    if (!node.gpu.isEmpty()) {
        resources << QStringLiteral("gpu: ") + numberText(node.gpu, true);
    }
    parts << QStringLiteral("resources: {") + resources.join(QStringLiteral(", ")) +
                 QLatin1Char('}');
    return QLatin1Char('{') + parts.join(QStringLiteral(", ")) + QLatin1Char('}');
}

// A node entry read as a document of its own: the entry's text with what stands before it on its
// first line blanked, so that its columns are the file's and a position in it is the file's minus
// `offset`. In a block collection the rest of its last line comes along, so that a comment there
// stays where it is when keys are added to a block mapping.
struct EntryDocument {
    YamlText yaml;
    qsizetype offset = 0;
};

EntryDocument entryDocument(const QString& text, TextSpan span, bool inFlow) {
    const qsizetype lineStart = text.lastIndexOf(QLatin1Char('\n'), span.start - 1) + 1;
    const qsizetype column = span.start - lineStart;
    qsizetype end = span.end;
    if (!inFlow) {
        const qsizetype newline = text.indexOf(QLatin1Char('\n'), end);
        end = newline < 0 ? text.size() : newline;
    }
    return {YamlText(QString(column, QLatin1Char(' ')) + text.mid(span.start, end - span.start)),
            span.start - column};
}

ClusterNode readNode(const EntryDocument& entry) {
    ClusterNode node;
    if (entry.yaml.kind({}) == YamlText::Kind::Mapping) {
        node.host = entry.yaml.scalar({QStringLiteral("host")});
        node.port = entry.yaml.scalar({QStringLiteral("port")});
        node.cpu = entry.yaml.scalar({QStringLiteral("resources"), QStringLiteral("cpu")});
        node.gpu = entry.yaml.scalar({QStringLiteral("resources"), QStringLiteral("gpu")});
    } else {
        std::tie(node.host, node.port) = splitHostPort(entry.yaml.scalar({}));
    }
    return node;
}

// The key by key edits that turn the mapping entry `entry` from `old` into `node`.
std::optional<TextEdit> mappingNodeEdit(const EntryDocument& entry, TextSpan span,
                                        const ClusterNode& old, const ClusterNode& node) {
    const bool flow = entry.yaml.isFlow({});
    QList<Step> steps;
    auto set = [&steps, flow](QStringList path, const QString& before, const QString& after,
                              bool number) {
        if (before == after) {
            return;
        }
        steps << [path, after, flow, number](const YamlText& yaml) -> std::optional<TextEdit> {
            if (after.isEmpty()) {
                return yaml.remove(path);
            }
            return yaml.setValue(path, number ? numberText(after, flow) : yamlString(after, flow));
        };
    };
    set({QStringLiteral("host")}, old.host, node.host, false);
    set({QStringLiteral("port")}, old.port, node.port, true);
    set({QStringLiteral("resources"), QStringLiteral("cpu")}, old.cpu, node.cpu, true);
    set({QStringLiteral("resources"), QStringLiteral("gpu")}, old.gpu, node.gpu, true);
    const std::optional<TextEdit> edit = chain(entry.yaml, steps);
    if (!edit || edit->start < span.start - entry.offset) {  // it reaches before the entry
        return std::nullopt;
    }
    return TextEdit{edit->start + entry.offset, edit->end + entry.offset, edit->text};
}

// The edit of the node entry at `span`: key by key when it is a mapping, else written anew.
std::optional<TextEdit> entryEdit(const YamlText& yaml, TextSpan span, bool inFlow,
                                  const ClusterNode& node) {
    if (!span.isValid() || span.start == span.end) {
        return std::nullopt;
    }
    const EntryDocument entry = entryDocument(yaml.text(), span, inFlow);
    const ClusterNode old = readNode(entry);
    if (old == node) {
        return std::nullopt;
    }
    if (entry.yaml.kind({}) == YamlText::Kind::Mapping) {
        if (auto edit = mappingNodeEdit(entry, span, old, node)) {
            return edit;
        }
        // A mapping the key edits cannot reach (the key to remove is on the dash line): anew.
        return TextEdit{span.start, span.end, nodeText(node, true)};
    }
    return TextEdit{span.start, span.end, nodeText(node, inFlow)};
}

}  // namespace

std::optional<TextEdit> chainedEdit(const YamlText& yaml, const QList<ClusterEditStep>& steps) {
    return chain(yaml, steps);
}

QString clusterNumberText(const QString& value, bool inFlow) {
    return numberText(value, inFlow);
}

std::pair<QString, QString> splitHostPort(const QString& entry) {
    if (entry.startsWith(QLatin1Char('['))) {
        const qsizetype close = entry.indexOf(QLatin1Char(']'));
        if (close > 0 && entry.mid(close + 1, 1) == QLatin1String(":")) {
            return {entry.left(close + 1), entry.mid(close + 2)};
        }
        return {entry, QString()};
    }
    if (entry.count(QLatin1Char(':')) == 1) {
        const qsizetype colon = entry.indexOf(QLatin1Char(':'));
        return {entry.left(colon), entry.mid(colon + 1)};
    }
    return {entry, QString()};
}

ClusterFields readClusterFields(const YamlText& yaml) {
    ClusterFields fields;
    for (ClusterField field :
         {ClusterField::Name,        ClusterField::Provider,       ClusterField::User,
          ClusterField::PrivateKey,  ClusterField::SshPort,        ClusterField::KnownHosts,
          ClusterField::MinWorkers,  ClusterField::MaxWorkers,     ClusterField::Cpu,
          ClusterField::Gpu,         ClusterField::Storage,        ClusterField::NodeTimeout,
          ClusterField::RemoteRoot,  ClusterField::UpscalingSpeed, ClusterField::IdleTimeoutMinutes,
          ClusterField::WorkerPath,  ClusterField::CreateCommand,  ClusterField::TerminateCommand,
          ClusterField::ListCommand, ClusterField::ConnectCommand}) {
        fields.values.insert(field, yaml.scalar(pathOf(field)));
    }
    fields.hasHead = yaml.span(kHead).isValid();
    const bool providerFlow = yaml.isFlow({kProvider});
    fields.nodes << (fields.hasHead
                         ? readNode(entryDocument(yaml.text(), yaml.span(kHead), providerFlow))
                         : ClusterNode{});
    const bool workersFlow = yaml.isFlow(kWorkers);
    for (const TextSpan& span : yaml.itemSpans(kWorkers)) {
        fields.nodes << (span.start < span.end
                             ? readNode(entryDocument(yaml.text(), span, workersFlow))
                             : ClusterNode{});
    }
    for (ClusterList list : {ClusterList::InitializationCommands, ClusterList::SetupCommands,
                             ClusterList::WorkerSetupCommands, ClusterList::RsyncExclude}) {
        fields.lists.insert(list, yaml.items(pathOf(list)));
    }
    for (const QString& remote : yaml.keys(kMounts)) {
        fields.mounts << ClusterMount{remote, yaml.scalar(kMounts + QStringList{remote})};
    }
    return fields;
}

std::optional<TextEdit> clusterFieldEdit(const YamlText& yaml, ClusterField field,
                                         const QString& value) {
    const QStringList path = pathOf(field);
    if (value.isEmpty()) {
        return yaml.kind(path) == YamlText::Kind::Missing ? std::nullopt : yaml.remove(path);
    }
    const bool inFlow = yaml.isFlow(path.mid(0, path.size() - 1));
    const QString written = isNumber(field) ? numberText(value, inFlow) : yamlString(value, inFlow);
    if (yaml.kind(path) == YamlText::Kind::Scalar && yaml.source(yaml.span(path)) == written) {
        return std::nullopt;
    }
    return yaml.setValue(path, written);
}

std::optional<TextEdit> clusterListEdit(const YamlText& yaml, ClusterList list,
                                        const QStringList& items) {
    const QStringList path = pathOf(list);
    if (yaml.kind(path) != YamlText::Kind::Sequence) {
        if (items.isEmpty()) {
            return std::nullopt;
        }
        return yaml.setValue(path, listText(items));
    }
    const QStringList old = yaml.items(path);
    if (old == items) {
        return std::nullopt;
    }
    // Only the middle that differs changes: items replaced pairwise, then added or removed.
    qsizetype prefix = 0;
    while (prefix < old.size() && prefix < items.size() && old[prefix] == items[prefix]) {
        ++prefix;
    }
    qsizetype suffix = 0;
    while (suffix < old.size() - prefix && suffix < items.size() - prefix &&
           old[old.size() - 1 - suffix] == items[items.size() - 1 - suffix]) {
        ++suffix;
    }
    const int changedOld = int(old.size() - prefix - suffix);
    const int changedNew = int(items.size() - prefix - suffix);
    QList<Step> steps;
    for (int k = 0; k < std::min(changedOld, changedNew); ++k) {
        const int index = int(prefix) + k;
        const QString value = items[index];
        steps << [path, index, value](const YamlText& current) -> std::optional<TextEdit> {
            const QList<TextSpan> spans = current.itemSpans(path);
            if (index >= spans.size() || spans[index].start == spans[index].end) {
                return std::nullopt;  // an empty `-`: no place to write into
            }
            return TextEdit{spans[index].start, spans[index].end,
                            yamlString(value, current.isFlow(path))};
        };
    }
    for (int k = changedOld; k < changedNew; ++k) {
        const int index = int(prefix) + k;
        const QString value = items[index];
        steps << [path, index, value](const YamlText& current) {
            return current.insertItem(path, index, yamlString(value, current.isFlow(path)));
        };
    }
    for (int k = changedNew; k < changedOld; ++k) {
        const int index = int(prefix) + changedNew;
        steps << [path, index](const YamlText& current) { return current.removeItem(path, index); };
    }
    if (auto edit = chain(yaml, steps)) {
        return edit;
    }
    // A list the item edits cannot reach (an empty `-` in it): written anew.
    return yaml.setValue(path, listText(items));
}

std::optional<TextEdit> nodeEdit(const YamlText& yaml, int row, const ClusterNode& node) {
    if (row == 0) {
        if (!yaml.span(kHead).isValid()) {
            return yaml.setValue(kHead, nodeText(node, yaml.isFlow({kProvider})));
        }
        return entryEdit(yaml, yaml.span(kHead), yaml.isFlow({kProvider}), node);
    }
    const QList<TextSpan> spans = yaml.itemSpans(kWorkers);
    if (row < 1 || row > spans.size()) {
        return std::nullopt;
    }
    return entryEdit(yaml, spans[row - 1], yaml.isFlow(kWorkers), node);
}

std::optional<TextEdit> addWorkerEdit(const YamlText& yaml, const ClusterNode& node) {
    if (yaml.kind(kWorkers) == YamlText::Kind::Sequence) {
        return yaml.insertItem(kWorkers, int(yaml.itemSpans(kWorkers).size()),
                               nodeText(node, yaml.isFlow(kWorkers)));
    }
    return yaml.setValue(kWorkers, QLatin1Char('[') + nodeText(node, true) + QLatin1Char(']'));
}

std::optional<TextEdit> removeWorkerEdit(const YamlText& yaml, int row) {
    return yaml.removeItem(kWorkers, row - 1);
}

std::optional<TextEdit> mountEdit(const YamlText& yaml, int row, const ClusterMount& mount) {
    const QStringList remotes = yaml.keys(kMounts);
    if (row < 0 || row >= remotes.size()) {
        return std::nullopt;
    }
    const QString oldRemote = remotes[row];
    const bool inFlow = yaml.isFlow(kMounts);
    QList<Step> steps;
    if (mount.remote != oldRemote) {
        steps << [oldRemote, mount, inFlow](const YamlText& current) -> std::optional<TextEdit> {
            const TextSpan key = current.keySpan(kMounts + QStringList{oldRemote});
            if (!key.isValid() || current.keys(kMounts).contains(mount.remote)) {
                return std::nullopt;  // two mounts cannot share a remote path
            }
            return TextEdit{key.start, key.end, yamlString(mount.remote, inFlow)};
        };
    }
    if (mount.local != yaml.scalar(kMounts + QStringList{oldRemote})) {
        steps << [mount, inFlow](const YamlText& current) {
            return current.setValue(kMounts + QStringList{mount.remote},
                                    yamlString(mount.local, inFlow));
        };
    }
    return chain(yaml, steps);
}

std::optional<TextEdit> addMountEdit(const YamlText& yaml, const ClusterMount& mount) {
    if (yaml.keys(kMounts).contains(mount.remote)) {
        return std::nullopt;
    }
    const bool inFlow = yaml.kind(kMounts) != YamlText::Kind::Mapping || yaml.isFlow(kMounts);
    return yaml.setValue(kMounts + QStringList{mount.remote}, yamlString(mount.local, inFlow));
}

std::optional<TextEdit> removeMountEdit(const YamlText& yaml, int row) {
    const QStringList remotes = yaml.keys(kMounts);
    if (row < 0 || row >= remotes.size()) {
        return std::nullopt;
    }
    return yaml.remove(kMounts + QStringList{remotes[row]});
}

}  // namespace tunedeck::app
