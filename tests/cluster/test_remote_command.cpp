// Remote command lines: quoting rules, a round trip through a real /bin/sh, and hostile
// arguments and paths run on a real node (sshd on 127.0.0.1) without ever running anything.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "cluster/command_provider.h"
#include "cluster/remote_command.h"
#include "ssh_test_support.h"

using namespace tunedeck;
using namespace tunedeck::ssh;
using namespace tunedeck::ssh::testing;

namespace {

// Words a user (or an attacker) might put in a config value or a path.
const QStringList kHostileWords = {
    "$(touch PWNED)",
    "'; touch PWNED; '",
    "`touch PWNED`",
    "line one\nline two; touch PWNED",
    "\"$(touch PWNED)\"",
    "$HOME ${HOME} $((1+1))",
    "*",
    "~",
    "-n",
    "a\\'b\\\\c",
    "tab\there",
    "semi;colon|pipe&amp>redirect<in",
    "",
    "'",
    "''''",
    "unicode: é ü ✓",
};

}  // namespace

class TestRemoteCommand : public QObject {
    Q_OBJECT

  private slots:
    void quotesWordsInSingleQuotes();
    void joinsArgvIntoOneCommandLine();
    void expandsOnlyALeadingTildeSlash();
    void roundTripsHostileWordsThroughALocalShell();
    void commandProviderPlaceholdersAreOneWordEach();
    void runsHostileArgumentsOnANodeAsPlainText();
    void createsAndListsAHostilePathUnderTheRemoteHome();
};

void TestRemoteCommand::quotesWordsInSingleQuotes() {
    QCOMPARE(shellQuote(""), QString("''"));
    QCOMPARE(shellQuote("plain"), QString("'plain'"));
    QCOMPARE(shellQuote("it's"), QString("'it'\\''s'"));
    QCOMPARE(shellQuote("$(x) `y` \"z\""), QString("'$(x) `y` \"z\"'"));
    QCOMPARE(shellQuote("a\nb"), QString("'a\nb'"));
}

void TestRemoteCommand::joinsArgvIntoOneCommandLine() {
    QCOMPARE(shellCommand({"echo", "a b", "", "c'd"}), QString("'echo' 'a b' '' 'c'\\''d'"));
    QCOMPARE(shellCommand({}), QString());
}

void TestRemoteCommand::expandsOnlyALeadingTildeSlash() {
    QCOMPARE(remotePathExpression("~"), QString("\"$HOME\""));
    QCOMPARE(remotePathExpression("~/"), QString("\"$HOME\"/"));
    QCOMPARE(remotePathExpression("~/runs/exp 1"), QString("\"$HOME\"/'runs/exp 1'"));
    QCOMPARE(remotePathExpression("~/$(x)"), QString("\"$HOME\"/'$(x)'"));
    QCOMPARE(remotePathExpression("~root/x"), QString("'~root/x'"));
    QCOMPARE(remotePathExpression("/opt/a b"), QString("'/opt/a b'"));
    QCOMPARE(remotePathExpression("relative/~/x"), QString("'relative/~/x'"));
}

void TestRemoteCommand::roundTripsHostileWordsThroughALocalShell() {
    QTemporaryDir scratch;
    QProcess shell;
    shell.setWorkingDirectory(scratch.path());
    // printf prints each argument followed by a NUL: the words must come back exactly.
    shell.start("/bin/sh", {"-c", shellCommand(QStringList{"printf", "%s\\0"} + kHostileWords)});
    QVERIFY(shell.waitForFinished(10000));
    QCOMPARE(shell.exitCode(), 0);
    QList<QByteArray> words = shell.readAllStandardOutput().split('\0');
    QCOMPARE(words.takeLast(), QByteArray());
    QCOMPARE(words.size(), kHostileWords.size());
    for (int i = 0; i < words.size(); ++i) {
        QCOMPARE(QString::fromUtf8(words.at(i)), kHostileWords.at(i));
    }
    QVERIFY(QDir(scratch.path()).isEmpty());
}

// What a cloud's create command prints (an id, an address) goes into terminate and connect:
// each value is one word of the user's command, whatever it holds, and plain words stay as
// written so that they may stand inside the user's own quotes.
void TestRemoteCommand::commandProviderPlaceholdersAreOneWordEach() {
    CommandTemplate command;
    command.parts = {
        {"printf '%s\\0' ", false}, {"id", true}, {" x", false}, {"node", true}, {"y", false}};
    QCOMPARE(expandCommand(command, {{"id", "i-0abc"}, {"node", "tunedeck-lab-1"}}),
             QString("printf '%s\\0' i-0abc xtunedeck-lab-1y"));
    QTemporaryDir scratch;
    for (const QString& word : kHostileWords) {
        QProcess shell;
        shell.setWorkingDirectory(scratch.path());
        shell.start("/bin/sh", {"-c", expandCommand(command, {{"id", word}, {"node", "n"}})});
        QVERIFY(shell.waitForFinished(10000));
        QCOMPARE(shell.exitCode(), 0);
        QList<QByteArray> words = shell.readAllStandardOutput().split('\0');
        QCOMPARE(words.size(), 3);
        QCOMPARE(QString::fromUtf8(words.at(0)), word);
        QCOMPARE(words.at(1), QByteArray("xny"));
    }
    QVERIFY(QDir(scratch.path()).isEmpty());
}

void TestRemoteCommand::runsHostileArgumentsOnANodeAsPlainText() {
    QString why;
    if (!sshdAvailable(&why)) {
        QSKIP(qPrintable(why));
    }
    SshdFixture sshd;
    QString error;
    QVERIFY2(sshd.start(&error), qPrintable(error));
    QTemporaryDir dir;
    const QString knownHosts = dir.filePath("known_hosts");
    QVERIFY(sshd.writeKnownHosts(knownHosts));
    OpenResult opened = openSession(endpointFor(sshd, knownHosts));
    QVERIFY(opened.connected);

    // Commands start in the user's real home; $HOME is the fixture's: neither may gain a file.
    const QString cwd = runCommand(*opened.session, "pwd").standardOutput.trimmed();
    QVERIFY(!cwd.isEmpty());
    const bool pwnedBefore = QFile::exists(cwd + "/PWNED");

    const QString command = "cd " + remotePathExpression("~") + " && " +
                            shellCommand(QStringList{"printf", "%s\\0"} + kHostileWords);
    const CommandResult result = runCommand(*opened.session, command);
    QVERIFY(result.finished);
    QCOMPARE(result.exitStatus, 0);
    QList<QByteArray> words = result.standardOutput.split('\0');
    QCOMPARE(words.takeLast(), QByteArray());
    QCOMPARE(words.size(), kHostileWords.size());
    for (int i = 0; i < words.size(); ++i) {
        QCOMPARE(QString::fromUtf8(words.at(i)), kHostileWords.at(i));
    }
    QVERIFY(!QFile::exists(sshd.homeDir() + "/PWNED"));
    QCOMPARE(QFile::exists(cwd + "/PWNED"), pwnedBefore);
}

void TestRemoteCommand::createsAndListsAHostilePathUnderTheRemoteHome() {
    QString why;
    if (!sshdAvailable(&why)) {
        QSKIP(qPrintable(why));
    }
    SshdFixture sshd;
    QString error;
    QVERIFY2(sshd.start(&error), qPrintable(error));
    QTemporaryDir dir;
    const QString knownHosts = dir.filePath("known_hosts");
    QVERIFY(sshd.writeKnownHosts(knownHosts));
    OpenResult opened = openSession(endpointFor(sshd, knownHosts));
    QVERIFY(opened.connected);

    const QString folder = "~/dir with 'quote' $(x)";
    const QString file = folder + "/`touch PWNED`; $(touch PWNED).txt";
    const QString command = "mkdir -p " + remotePathExpression(folder) + " && " +
                            shellCommand({"printf", "%s", "payload"}) + " > " +
                            remotePathExpression(file) + " && ls -A " +
                            remotePathExpression(folder) + " && cd " +
                            remotePathExpression(folder) + " && pwd";
    const CommandResult result = runCommand(*opened.session, command);
    QVERIFY2(result.finished && result.exitStatus == 0, result.standardError.constData());
    const QString local = sshd.homeDir() + "/dir with 'quote' $(x)";
    QCOMPARE(QString::fromUtf8(result.standardOutput),
             QString("`touch PWNED`; $(touch PWNED).txt\n") + local + "\n");
    QFile written(local + "/`touch PWNED`; $(touch PWNED).txt");
    QVERIFY(written.open(QIODevice::ReadOnly));
    QCOMPARE(written.readAll(), QByteArray("payload"));
    const QStringList everything =
        QDir(sshd.homeDir()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot);
    QCOMPARE(everything, QStringList{"dir with 'quote' $(x)"});
    QVERIFY(!QFile::exists(local + "/PWNED"));
}

QTEST_GUILESS_MAIN(TestRemoteCommand)
#include "test_remote_command.moc"
