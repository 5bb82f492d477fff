#include "config/cluster_command_provider.h"

#include <QRegularExpression>

namespace tunedeck {

namespace {

const QString kNodeConfigPrefix = QStringLiteral("node_config.");

// What each command may use: a node's own values are known only once it exists, and `list` and
// `terminate` also run for nodes another engine made (`cluster down`), of which only the id
// printed by `list` is known.
const QStringList& placeholdersOf(const QString& command) {
    static const QStringList create = {"node", "type",   "cluster",      "cpu",
                                       "gpu",  "worker", "node_config.*"};
    static const QStringList connect = {"node", "id",  "address", "type",         "cluster",
                                        "cpu",  "gpu", "worker",  "node_config.*"};
    static const QStringList terminate = {"id", "cluster"};
    static const QStringList list = {"cluster"};
    if (command == QLatin1String("create")) {
        return create;
    }
    if (command == QLatin1String("connect")) {
        return connect;
    }
    return command == QLatin1String("terminate") ? terminate : list;
}

struct CommandKey {
    const char* key;
    CommandTemplate CommandProviderConfig::*field;
    const char* what;  // for "required key is missing (...)"
};

constexpr CommandKey kCommandKeys[] = {
    {"create", &CommandProviderConfig::create,
     "the command that starts a node named {node} of type {type} and prints its id and address, "
     "e.g. kubectl run {node} --image=IMAGE -- sleep infinity"},
    {"terminate", &CommandProviderConfig::terminate,
     "the command that ends node {id}, e.g. kubectl delete pod {id} --wait=false"},
    {"list", &CommandProviderConfig::list,
     "the command that prints the ids of the cluster's live nodes, e.g. kubectl get pods -l "
     "tunedeck-cluster={cluster} -o name"},
    {"connect", &CommandProviderConfig::connect,
     "the command whose stdin and stdout reach the node's agent, e.g. kubectl exec -i {id} -- "
     "tunedeck-worker"},
};

QString knownList(const QStringList& allowed) {
    QStringList shown;
    for (const QString& name : allowed) {
        shown << (name.endsWith(QLatin1String(".*"))
                      ? QStringLiteral("{%1KEY}").arg(name.chopped(1))
                      : QStringLiteral("{%1}").arg(name));
    }
    return shown.join(QStringLiteral(", "));
}

bool isAllowed(const QString& name, const QStringList& allowed) {
    if (allowed.contains(name)) {
        return true;
    }
    return name.startsWith(kNodeConfigPrefix) && name.size() > kNodeConfigPrefix.size() &&
           allowed.contains(QStringLiteral("node_config.*"));
}

}  // namespace

std::optional<CommandTemplate> parseCommandTemplate(const QString& text, const QString& command,
                                                    const QStringList& allowed, QString* problem) {
    static const QRegularExpression placeholder(
        QStringLiteral("\\G\\{([a-z][a-z0-9_]*(?:\\.[A-Za-z0-9_][A-Za-z0-9_.-]*)?)\\}"));
    CommandTemplate result;
    QString literal;
    const auto flush = [&] {
        if (!literal.isEmpty()) {
            result.parts.push_back({literal, false});
            literal.clear();
        }
    };
    for (qsizetype i = 0; i < text.size();) {
        const QChar c = text.at(i);
        if (c == QLatin1Char('{') && i + 1 < text.size() && text.at(i + 1) == c) {
            literal += c;
            i += 2;
            continue;
        }
        if (c == QLatin1Char('{')) {
            const QRegularExpressionMatch match = placeholder.match(text, i);
            if (match.hasMatch()) {
                const QString name = match.captured(1);
                if (!isAllowed(name, allowed)) {
                    *problem = QStringLiteral(
                                   "{%1} is not a placeholder of %2 (known: %3; {{ is a "
                                   "literal brace)")
                                   .arg(name, command, knownList(allowed));
                    return std::nullopt;
                }
                flush();
                result.parts.push_back({name, true});
                i += match.capturedLength(0);
                continue;
            }
        }
        literal += c;
        ++i;
    }
    flush();
    return result;
}

void readCommandProvider(YamlReader& reader, const std::vector<YamlEntry>& entries,
                         const YamlEntry& provider, ClusterSpec* spec) {
    spec->provider = ClusterProvider::Command;
    reader.rejectUnknown(entries,
                         {"type", "create", "terminate", "list", "connect", "list_interval_s"});
    for (const CommandKey& command : kCommandKeys) {
        const QString key = QLatin1String(command.key);
        const YamlEntry* entry = findEntry(entries, key);
        if (!entry) {
            reader.problem(
                provider.keyLocation, provider.path + QLatin1Char('.') + key,
                QStringLiteral("required key is missing (%1)").arg(QLatin1String(command.what)));
            continue;
        }
        const std::optional<QString> text = reader.string(*entry);
        if (!text) {
            continue;
        }
        if (text->trimmed().isEmpty()) {
            reader.problem(
                entry->valueLocation, entry->path,
                QStringLiteral("must not be empty (%1)").arg(QLatin1String(command.what)));
            continue;
        }
        QString problem;
        std::optional<CommandTemplate> parsed =
            parseCommandTemplate(*text, key, placeholdersOf(key), &problem);
        if (!parsed) {
            reader.problem(entry->valueLocation, entry->path, problem);
            continue;
        }
        spec->commands.*command.field = std::move(*parsed);
    }
    if (const YamlEntry* interval = findEntry(entries, QStringLiteral("list_interval_s"))) {
        spec->commands.listIntervalS =
            reader.numberAbove(*interval, 0).value_or(spec->commands.listIntervalS);
    }
}

void checkNodeConfigKeys(YamlReader& reader, const ClusterSpec& spec) {
    for (const ClusterNodeType& type : spec.nodeTypes) {
        for (const auto& [name, command] :
             {std::pair{"create", &spec.commands.create}, {"connect", &spec.commands.connect}}) {
            QStringList reported;
            for (const CommandTemplate::Part& part : command->parts) {
                if (!part.placeholder || !part.text.startsWith(kNodeConfigPrefix)) {
                    continue;
                }
                const QString key = part.text.mid(kNodeConfigPrefix.size());
                if (type.nodeConfig.contains(key) || reported.contains(key)) {
                    continue;
                }
                reported << key;
                reader.problem(
                    type.location,
                    QStringLiteral("available_node_types.%1.node_config.%2").arg(type.name, key),
                    QStringLiteral("required key is missing (provider.%1 uses {%2})")
                        .arg(QLatin1String(name), part.text));
            }
        }
    }
}

}  // namespace tunedeck
