#include "config/cluster_sections.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

#include "config/cluster_hosts.h"

namespace tunedeck {

namespace {

enum class PathNeed { File, AnythingButFolder, Exists };

// A local path of the cluster file: "~" expanded, relative paths from the file's folder.
std::optional<QString> readLocalPath(YamlReader& reader, const YamlEntry& entry,
                                     const FilePlace& place, PathNeed need) {
    const auto written = reader.string(entry);
    if (!written) {
        return std::nullopt;
    }
    const QString path = place.resolveHome(*written);
    if (path.isEmpty()) {
        reader.problem(entry.valueLocation, entry.path,
                       QStringLiteral("'%1': only ~ and ~/ (your own home folder) are expanded")
                           .arg(*written));
        return std::nullopt;
    }
    const QFileInfo info(path);
    const bool relative = !QDir::isAbsolutePath(*written) && !written->startsWith('~');
    const QString hint =
        relative ? QStringLiteral(" (relative paths start from the cluster file's folder)")
                 : QString();
    if (need != PathNeed::AnythingButFolder && !info.exists()) {
        reader.problem(entry.valueLocation, entry.path,
                       QStringLiteral("'%1' does not exist%2").arg(*written, hint));
        return std::nullopt;
    }
    if (need == PathNeed::File && !info.isFile()) {
        reader.problem(entry.valueLocation, entry.path,
                       QStringLiteral("'%1' is not a file").arg(*written));
        return std::nullopt;
    }
    if (need == PathNeed::AnythingButFolder && info.isDir()) {
        reader.problem(entry.valueLocation, entry.path,
                       QStringLiteral("'%1' is a folder; name the file itself").arg(*written));
        return std::nullopt;
    }
    return path;
}

std::optional<int> readPort(YamlReader& reader, const YamlEntry& entry) {
    const auto port = reader.integer(entry);
    if (!port) {
        return std::nullopt;
    }
    if (!isValidPort(*port)) {
        reader.problem(entry.valueLocation, entry.path,
                       QStringLiteral("must be a port from 1 to 65535, got %1").arg(*port));
        return std::nullopt;
    }
    return int(*port);
}

std::optional<WrittenNode> readNodeMapping(YamlReader& reader, const YAML::Node& value,
                                           WrittenNode node) {
    const std::vector<YamlEntry> entries = reader.entries(value, node.path);
    reader.rejectUnknown(entries, {"host", "port", "resources"});
    bool ok = true;
    if (const YamlEntry* host = findEntry(entries, QStringLiteral("host"))) {
        if (const auto text = reader.string(*host)) {
            if (const QString problem = hostProblem(*text, false); !problem.isEmpty()) {
                reader.problem(host->valueLocation, host->path, problem);
                ok = false;
            } else {
                node.host =
                    text->startsWith(QLatin1Char('[')) ? text->mid(1, text->size() - 2) : *text;
            }
        } else {
            ok = false;
        }
    } else {
        reader.problem(node.location, node.path + QStringLiteral(".host"),
                       QStringLiteral("required key is missing (the node's hostname or IP "
                                      "address)"));
        ok = false;
    }
    if (const YamlEntry* port = findEntry(entries, QStringLiteral("port"))) {
        node.port = readPort(reader, *port);
        ok = ok && node.port.has_value();
    }
    if (const YamlEntry* resources = findEntry(entries, QStringLiteral("resources"))) {
        readNodeResources(reader, *resources, &node.resources);
    }
    return ok ? std::optional(node) : std::nullopt;
}

}  // namespace

std::optional<WrittenNode> readNode(YamlReader& reader, const YAML::Node& value,
                                    const QString& path, const SourceLocation& at) {
    WrittenNode node;
    node.path = path;
    node.location = at;
    if (value.IsMap()) {
        return readNodeMapping(reader, value, std::move(node));
    }
    if (!isText(value)) {
        reader.problem(node.location, path,
                       QStringLiteral("expected a host (\"host\", \"host:port\" or {host: ..., "
                                      "port: ..., resources: ...}), got %1")
                           .arg(describeYaml(value)));
        return std::nullopt;
    }
    QString problem;
    const auto address = parseHostAndPort(yamlText(value), &problem);
    if (!address) {
        reader.problem(node.location, path, problem);
        return std::nullopt;
    }
    node.host = address->host;
    node.port = address->port;
    return node;
}

void readNodeResources(YamlReader& reader, const YamlEntry& entry, NodeResources* out) {
    if (entry.value.IsNull() || !reader.isMap(entry)) {
        return;
    }
    const std::vector<YamlEntry> entries = reader.entries(entry.value, entry.path);
    reader.rejectUnknown(entries, {"cpu", "gpu"});
    if (const YamlEntry* cpu = findEntry(entries, QStringLiteral("cpu"))) {
        if (const auto value = reader.numberAbove(*cpu, 0)) {
            out->cpu = *value;
        }
    }
    // Whole cards: the agent offers the first N it finds; a share of a card is a trial's
    // request (resources_per_trial), not a node's.
    if (const YamlEntry* gpu = findEntry(entries, QStringLiteral("gpu"))) {
        const auto number = gpu->value.IsScalar() && !isQuoted(gpu->value)
                                ? parseYamlNumber(yamlText(gpu->value))
                                : std::nullopt;
        if (number && !parseYamlInteger(yamlText(gpu->value))) {
            reader.problem(gpu->valueLocation, gpu->path,
                           QStringLiteral("a node offers whole GPUs, got %1 (a trial asks for a "
                                          "share of one in resources_per_trial)")
                               .arg(yamlText(gpu->value)));
        } else if (const auto value = reader.integerAtLeast(*gpu, 0)) {
            out->gpu = double(*value);
        }
    }
}

void readAuth(YamlReader& reader, const YamlEntry& entry, const FilePlace& place,
              bool sshUserRequired, ClusterSpec* out) {
    if (!entry.value.IsNull() && !reader.isMap(entry)) {
        return;
    }
    const std::vector<YamlEntry> entries = reader.entries(entry.value, entry.path);
    // ssh_public_key: Ray copies it to cloud machines it starts; the nodes here already
    // accept the private key, so it is accepted and not needed.
    reader.rejectUnknown(
        entries, {"ssh_user", "ssh_private_key", "ssh_public_key", "ssh_port", "known_hosts"});
    if (const YamlEntry* user = findEntry(entries, QStringLiteral("ssh_user"))) {
        // POSIX portable user names; a leading '-' would read as an option.
        static const QRegularExpression valid(QStringLiteral("^[A-Za-z0-9_][A-Za-z0-9_.-]*$"));
        if (const auto name = reader.string(*user)) {
            if (valid.match(*name).hasMatch()) {
                out->sshUser = *name;
            } else {
                reader.problem(user->valueLocation, user->path,
                               QStringLiteral("'%1' is not a user name (letters, digits, '_', "
                                              "'.' and '-', not starting with '-' or '.')")
                                   .arg(printable(*name)));
            }
        }
    } else if (sshUserRequired) {
        reader.problem(entry.keyLocation, entry.path + QStringLiteral(".ssh_user"),
                       QStringLiteral("required key is missing (the user to log in as on every "
                                      "node)"));
    }
    if (const YamlEntry* key = findEntry(entries, QStringLiteral("ssh_private_key"))) {
        out->sshPrivateKey = readLocalPath(reader, *key, place, PathNeed::File).value_or(QString());
    }
    if (const YamlEntry* port = findEntry(entries, QStringLiteral("ssh_port"))) {
        out->sshPort = readPort(reader, *port).value_or(out->sshPort);
    }
    if (const YamlEntry* knownHosts = findEntry(entries, QStringLiteral("known_hosts"))) {
        // It may not exist yet: accepting a new host's fingerprint creates it.
        out->knownHosts = readLocalPath(reader, *knownHosts, place, PathNeed::AnythingButFolder)
                              .value_or(out->knownHosts);
    }
}

void readFileMounts(YamlReader& reader, const YamlEntry& entry, const FilePlace& place,
                    std::vector<FileMount>* out) {
    if (entry.value.IsNull() || !reader.isMap(entry)) {
        return;
    }
    for (YamlEntry mount : reader.entries(entry.value, entry.path)) {
        mount.path = entry.path + QLatin1Char('.') + printable(mount.key);
        if (mount.key.isEmpty()) {
            reader.problem(mount.keyLocation, entry.path, QStringLiteral("a remote path is empty"));
            continue;
        }
        if (mount.key.contains(QChar(0)) || mount.key.contains(QLatin1Char('\n')) ||
            mount.key.contains(QLatin1Char('\r'))) {
            reader.problem(mount.keyLocation, mount.path,
                           QStringLiteral("the remote path holds a NUL or a line break"));
            continue;
        }
        if (const auto local = readLocalPath(reader, mount, place, PathNeed::Exists)) {
            out->push_back({mount.key, *local, mount.keyLocation});
        }
    }
}

std::optional<QStringList> readStringList(YamlReader& reader, const YamlEntry& entry) {
    if (entry.value.IsNull()) {
        return QStringList();
    }
    if (!entry.value.IsSequence()) {
        reader.problem(
            entry.valueLocation, entry.path,
            QStringLiteral("expected a list of strings, got %1").arg(describeYaml(entry.value)));
        return std::nullopt;
    }
    QStringList items;
    bool ok = true;
    for (std::size_t i = 0; i < entry.value.size(); ++i) {
        const YAML::Node item = entry.value[i];
        if (!isText(item)) {
            reader.problem(reader.itemLocation(entry.value, i),
                           QStringLiteral("%1[%2]").arg(entry.path).arg(i),
                           QStringLiteral("expected a string, got %1").arg(describeYaml(item)));
            ok = false;
            continue;
        }
        items << yamlText(item);
    }
    return ok ? std::optional(items) : std::nullopt;
}

std::optional<QString> readRemoteRoot(YamlReader& reader, const YamlEntry& entry) {
    const auto path = reader.string(entry);
    if (!path) {
        return std::nullopt;
    }
    // The launcher names this folder in commands it runs on nodes: keep to characters no shell
    // reads specially, "~" only at the start.
    static const QRegularExpression safe(
        QStringLiteral("^(~|~/[A-Za-z0-9_.+@%=,/-]*|[A-Za-z0-9_.+@%=,/][A-Za-z0-9_.+@%=,/-]*)$"));
    if (!safe.match(*path).hasMatch()) {
        reader.problem(entry.valueLocation, entry.path,
                       QStringLiteral("'%1' is not a usable folder on the nodes (letters, digits "
                                      "and _ . / - + @ % = , only; ~/ at the start for the "
                                      "home folder)")
                           .arg(printable(*path)));
        return std::nullopt;
    }
    return *path;
}

}  // namespace tunedeck
