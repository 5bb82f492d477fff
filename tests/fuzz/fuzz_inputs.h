// The entry points of the fuzz targets: each feeds untrusted bytes to one parser the way the
// engine or the agent receives them (a file's text, a stream of lines in chunks) and checks what
// a user relies on: a result, or a clear refusal, never a crash. A broken promise aborts, which
// libFuzzer records as a crash and the corpus replay (tst_fuzz_corpus) as a failed run.
// The libFuzzer targets (fuzz_<name>.cpp) and the replay runner call the same functions.
// Stateless; each call may run on any thread.
#pragma once

#include <QByteArrayView>
#include <QString>
#include <vector>

namespace tunedeck::fuzz {

// What the parser made of the input: accepted (a spec, a request, every line read), or refused
// with `message`, the text the user would see (the first refusal, for a stream of lines).
struct Verdict {
    bool accepted = false;
    QString message;
};

// An experiment file's text, as `run` and the control API's `validate` load it.
Verdict experimentFile(QByteArrayView bytes);
// A cluster file's text, as `cluster up` and an experiment's `cluster:` load it.
Verdict clusterFile(QByteArrayView bytes);
// An NNI search-space JSON file's text, as an experiment's `search_space: FILE.json` reads it.
Verdict nniSearchSpace(QByteArrayView bytes);
// A trial's channel as the node agent reads it: framed into lines, each checked before it is
// relayed. Every line the agent relays must be one the engine reads (core/trial_line_rule.h).
Verdict agentTrialLines(QByteArrayView bytes);
// An agent's stream as the engine reads it: framed (core/line_framer.h), each line parsed into
// the message the runtime handles.
Verdict engineAgentLines(QByteArrayView bytes);
// A control-API connection's bytes as `serve` reads them: framed, each line parsed as a request,
// the experiment names it carries checked by the one rule for names.
Verdict controlRequests(QByteArrayView bytes);

struct Target {
    const char* name;  // fuzz_<name> is its libFuzzer executable; regression/<name>/ its corpus
    Verdict (*run)(QByteArrayView bytes);
};

// Every target, in the order scripts/fuzz runs them.
const std::vector<Target>& targets();

}  // namespace tunedeck::fuzz
