#include "config/cluster_hosts.h"

#include <QRegularExpression>
#include <QStringList>

namespace tunedeck {

namespace {

constexpr int kMaxHostnameLength = 253;  // RFC 1035, without the trailing dot
constexpr int kMaxLabelLength = 63;

const QString& addressKinds() {
    static const QString words =
        QStringLiteral("a hostname, an IPv4 address or an IPv6 address in brackets");
    return words;
}

bool isDigits(const QString& text) {
    static const QRegularExpression digits(QStringLiteral("^[0-9]+$"));
    return digits.match(text).hasMatch();
}

// Dotted-quad only: "10.1" or "010.0.0.1" mean other addresses to inet_aton than to a reader.
bool isIpv4(const QString& text) {
    const QStringList parts = text.split(QLatin1Char('.'));
    if (parts.size() != 4) {
        return false;
    }
    for (const QString& part : parts) {
        if (!isDigits(part) || part.size() > 3 || (part.size() > 1 && part.startsWith('0')) ||
            part.toInt() > 255) {
            return false;
        }
    }
    return true;
}

bool isHostname(const QString& text) {
    static const QRegularExpression label(
        QStringLiteral("^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?$"));
    if (text.size() > kMaxHostnameLength) {
        return false;
    }
    const QStringList labels = text.split(QLatin1Char('.'));
    for (const QString& part : labels) {
        if (part.size() > kMaxLabelLength || !label.match(part).hasMatch()) {
            return false;
        }
    }
    // An all-numeric last label makes it an IPv4 address (RFC 3696), checked as such.
    return !isDigits(labels.last());
}

bool isHexGroup(const QString& group) {
    static const QRegularExpression hex(QStringLiteral("^[0-9A-Fa-f]{1,4}$"));
    return hex.match(group).hasMatch();
}

// RFC 4291 text forms: eight groups, "::" once for a run of zeros, an IPv4 tail, a zone after '%'.
bool isIpv6(const QString& text) {
    QString address = text;
    const qsizetype percent = text.indexOf(QLatin1Char('%'));
    if (percent >= 0) {
        static const QRegularExpression zone(QStringLiteral("^[A-Za-z0-9_.-]+$"));
        if (!zone.match(text.mid(percent + 1)).hasMatch()) {
            return false;
        }
        address = text.left(percent);
    }
    const qsizetype gap = address.indexOf(QLatin1String("::"));
    if (gap >= 0 && address.indexOf(QLatin1String("::"), gap + 1) >= 0) {
        return false;
    }
    QStringList groups;
    const auto addGroups = [&groups](const QString& side) {
        if (!side.isEmpty()) {
            groups += side.split(QLatin1Char(':'));
        }
    };
    if (gap >= 0) {
        addGroups(address.left(gap));
        addGroups(address.mid(gap + 2));
    } else {
        addGroups(address);
    }
    int count = 0;
    for (qsizetype i = 0; i < groups.size(); ++i) {
        if (i == groups.size() - 1 && groups[i].contains(QLatin1Char('.'))) {
            if (!isIpv4(groups[i])) {
                return false;
            }
            count += 2;
        } else if (isHexGroup(groups[i])) {
            count += 1;
        } else {
            return false;
        }
    }
    return gap >= 0 ? count <= 7 : count == 8;
}

}  // namespace

bool isValidPort(std::int64_t port) {
    return port >= 1 && port <= 65535;
}

QString printable(const QString& text) {
    QString out;
    for (const QChar c : text) {
        if (c == QLatin1Char('\n')) {
            out += QStringLiteral("\\n");
        } else if (c == QLatin1Char('\r')) {
            out += QStringLiteral("\\r");
        } else if (c == QLatin1Char('\t')) {
            out += QStringLiteral("\\t");
        } else if (c.unicode() < 0x20 || c.unicode() == 0x7f) {
            out += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
        } else {
            out += c;
        }
    }
    return out;
}

QString hostProblem(const QString& host, bool bracketsRequired) {
    if (host.isEmpty()) {
        return QStringLiteral("is empty; write %1").arg(addressKinds());
    }
    const QString shown = QStringLiteral("'%1'").arg(printable(host));
    if (host.startsWith(QLatin1Char('['))) {
        if (host.endsWith(QLatin1Char(']')) && isIpv6(host.mid(1, host.size() - 2))) {
            return QString();
        }
        return QStringLiteral("%1 is not an IPv6 address in brackets").arg(shown);
    }
    if (host.contains(QLatin1Char(':')) && isIpv6(host)) {
        return bracketsRequired ? QStringLiteral(
                                      "%1: write an IPv6 address in brackets, as "
                                      "[%2] or [%2]:22, so its port is not ambiguous")
                                      .arg(shown, host)
                                : QString();
    }
    if (isHostname(host) || isIpv4(host)) {
        return QString();
    }
    if (host.startsWith(QLatin1Char('-'))) {
        return QStringLiteral("%1 is not a host: it must not start with '-' (write %2)")
            .arg(shown, addressKinds());
    }
    static const QRegularExpression dotted(QStringLiteral("^[0-9.]+$"));
    if (dotted.match(host).hasMatch()) {
        return QStringLiteral("%1 is not an IPv4 address (four numbers 0 to 255, as 10.0.0.1)")
            .arg(shown);
    }
    return QStringLiteral("%1 is not %2").arg(shown, addressKinds());
}

std::optional<HostAndPort> parseHostAndPort(const QString& text, QString* problem) {
    HostAndPort result;
    QString portText;
    bool hasPort = false;
    if (text.startsWith(QLatin1Char('['))) {
        const qsizetype close = text.indexOf(QLatin1Char(']'));
        const QString rest = close < 0 ? QString() : text.mid(close + 1);
        if (close < 0 || !(rest.isEmpty() || rest.startsWith(QLatin1Char(':')))) {
            *problem = QStringLiteral(
                           "'%1' is not an IPv6 address in brackets with an optional "
                           ":port")
                           .arg(printable(text));
            return std::nullopt;
        }
        *problem = hostProblem(text.left(close + 1), true);
        result.host = text.mid(1, close - 1);
        hasPort = !rest.isEmpty();
        portText = rest.mid(1);
    } else if (text.count(QLatin1Char(':')) == 1) {
        const qsizetype colon = text.indexOf(QLatin1Char(':'));
        result.host = text.left(colon);
        *problem = hostProblem(result.host, true);
        hasPort = true;
        portText = text.mid(colon + 1);
    } else {
        result.host = text;
        *problem = hostProblem(text, true);
    }
    if (!problem->isEmpty()) {
        return std::nullopt;
    }
    if (hasPort) {
        bool ok = false;
        const int port = portText.toInt(&ok);
        if (!isDigits(portText) || !ok || !isValidPort(port)) {
            *problem = QStringLiteral("'%1': the port must be a number from 1 to 65535")
                           .arg(printable(text));
            return std::nullopt;
        }
        result.port = port;
    }
    return result;
}

}  // namespace tunedeck
