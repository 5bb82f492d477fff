// tunedeck-engine: run, resume and inspect hyperparameter-tuning experiments from the command
// line (headless), on this machine or on the nodes of a cluster reached over SSH.
#include <QCoreApplication>
#include <csignal>
#include <cstdio>

#include "cli/commands.h"
#include "core/heap_tuning.h"
#include "runtime/experiment_runner.h"
#include "tunedeck/version.h"

namespace {

const char* const kUsage = R"(Usage: tunedeck-engine COMMAND [OPTIONS]

Run and inspect hyperparameter-tuning experiments.

Commands:
  validate EXPERIMENT.yaml       check an experiment file; errors name file:line:column
      [--file-only]              skip checking that some node can hold a trial's resources
  run EXPERIMENT.yaml            run an experiment on this machine
      [--results DIR]            results root (default $TUNEDECK_RESULTS or ~/tunedeck-results)
      [--quiet]                  print only the final summary
      [--events FILE.jsonl]      also write every event as a JSON line
      [--as FILE]                resolve relative paths as if the file were FILE
      [--control-stdin]          take orders as JSON lines on stdin (serve uses it)
  run SCRIPT.py [ARGS...]        run a Ray Tune script unchanged: it is the driver,
                                 with Tunedeck's `ray` package on its path
  run config.yml                 run an NNI experiment config (trial code's
                                 `import nni` works) [--results DIR] [--quiet]
      [--dry-run]                print the Tunedeck experiment it stands for
      [--accept-new-host-keys]   trust remote machines not yet in known_hosts
  resume EXPERIMENT_DIR          continue a paused run [--quiet] [--events FILE.jsonl]
  ls [--results DIR]             past experiments, one line each
  show EXPERIMENT_DIR            the trials with their configs and metrics, and the
                                 best trial [--scope SCOPE, as best's]
  best EXPERIMENT_DIR            the best trial's config; with several objectives the
                                 Pareto front (yaml/json: a list under pareto_front,
                                 flags: one line per trial)
      [--format yaml|json|flags] [-o FILE] [--metric NAME]
      [--scope last|all|avg|last-5-avg|last-10-avg]   rank by (default last)
  export EXPERIMENT_DIR          every result
      --format csv|json [-o FILE]
  note EXPERIMENT_DIR TRIAL TEXT set a trial's note ("" removes it); `show` and
                                 `export` carry it
      [--connect ADDRESS] [--token-file FILE]
                                 through a server, EXPERIMENT its name there
                                 (needed while the experiment runs)
  pbt-replay EXPERIMENT_DIR TRIAL_ID
                                 re-run the config schedule of a PBT trial's lineage
      [--results DIR] [--quiet] [--events FILE.jsonl] [--dry-run]
  rerun EXPERIMENT_DIR           run it again with the code it ran with (a git worktree
                                 at the recorded commit with its diff) and its seed
      [--trial ID] [--repository DIR] [--results DIR] [--quiet] [--events FILE.jsonl]
  recover EXPERIMENT_DIR         salvage what is readable of a damaged history into a
                                 new one (the damaged file is kept) and say what was lost
  cluster up|down|status CLUSTER.yaml
                                 set up the nodes of a cluster file (copy the agent
                                 and file mounts, run setup), stop their agents and
                                 trials, or show their health and what runs there
  cluster exec CLUSTER.yaml COMMAND
                                 run a shell command on every node
  cluster rsync-up|rsync-down CLUSTER.yaml SOURCE TARGET
                                 copy files to every node, or from the head node,
                                 only what changed
      [--node NAME]...           only these nodes
      [--accept-new-host-keys]   trust nodes not yet in known_hosts (also for run
                                 and resume); a changed host key is always refused
  submit CLUSTER.yaml EXPERIMENT.yaml
                                 run the experiment on the cluster (Ray's ray submit)
      [--start]                  set the cluster up first (cluster up)
      [--stop]                   take it down afterwards (cluster down), also when
                                 the run fails or is interrupted
      [--results DIR] [--quiet] [--events FILE.jsonl] [--accept-new-host-keys]
  submit [--start] [--stop] [--results DIR] [--accept-new-host-keys]
         CLUSTER.yaml SCRIPT.py|config.yml [ARGS...]
                                 a Ray Tune or Optuna script (or an NNI config), its
                                 trials on the cluster's nodes (Ray's ray submit)

  serve                          the control API for the desktop app; runs each
                                 experiment it starts as its own process
      [--listen unix:PATH|tcp:HOST:PORT]
                                 default unix:$XDG_RUNTIME_DIR/tunedeck/engine.sock,
                                 private to this user; TCP needs --token-file
      [--token-file FILE]        clients send its first line in their hello
      [--results DIR]
      [--capacity cpu=N,gpu=M]   what the experiments on this machine share through
                                 the fair queue (default: this machine's CPUs, GPUs)
      [--quota USER=cpu:N,gpu:M] the most one user's trials hold at once (repeat)
      [--starvation-s S]         a waiting experiment is not passed over after S
  queue                          serve's fair queue: each experiment's user,
                                 priority, trials running and wanted, and why it waits
      [--connect unix:PATH|tcp:HOST:PORT] [--token-file FILE] [--format text|json]
  set-max-workers EXPERIMENT NODE_TYPE N
                                 a running experiment's autoscaler (served) caps that
                                 node type at N nodes from now on
      [--connect unix:PATH|tcp:HOST:PORT] [--token-file FILE]
  set-limits EXPERIMENT          a running experiment (served) from now on: more or
                                 fewer samples, more or fewer trials at once; running
                                 trials are never stopped; resume keeps the change
      [--num-samples N] [--max-concurrent N]
      [--connect unix:PATH|tcp:HOST:PORT] [--token-file FILE]

Options:
  -h, --help                     this text
  --version                      version and commit

Exit codes: 0 finished, 1 finished with errored trials, 2 bad input, 3 paused.
)";

}  // namespace

int main(int argc, char** argv) {
    // A worker agent or a reader of our output may go away at any time; that is an event to
    // handle (EPIPE), never a reason for the engine to die.
    std::signal(SIGPIPE, SIG_IGN);
    tunedeck::keepFreedMemoryForReuse();  // core/heap_tuning.h: the model searchers' matrices
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("tunedeck-engine"));
    QCoreApplication::setApplicationVersion(QStringLiteral(TUNEDECK_VERSION));
    QStringList args = QCoreApplication::arguments().mid(1);
    if (args.isEmpty() || args.first() == QLatin1String("-h") ||
        args.first() == QLatin1String("--help") || args.first() == QLatin1String("help")) {
        std::fputs(kUsage, args.isEmpty() ? stderr : stdout);
        return args.isEmpty() ? tunedeck::kExitBadInput : 0;
    }
    if (args.first() == QLatin1String("--version")) {
        std::printf("tunedeck-engine %s (commit %s)\n", TUNEDECK_VERSION, TUNEDECK_GIT_COMMIT);
        return 0;
    }
    const QString command = args.takeFirst();
    using Command = int (*)(const QStringList&);
    const std::pair<const char*, Command> commands[] = {
        {"validate", tunedeck::cli::validate},
        {"run", tunedeck::cli::run},
        {"resume", tunedeck::cli::resume},
        {"ls", tunedeck::cli::list},
        {"show", tunedeck::cli::show},
        {"note", tunedeck::cli::note},
        {"best", tunedeck::cli::best},
        {"export", tunedeck::cli::exportResults},
        {"pbt-replay", tunedeck::cli::pbtReplay},
        {"rerun", tunedeck::cli::rerun},
        {"recover", tunedeck::cli::recover},
        {"cluster", tunedeck::cli::cluster},
        {"submit", tunedeck::cli::submit},
        {"serve", tunedeck::cli::serve},
        {"queue", tunedeck::cli::queue},
        {"set-max-workers", tunedeck::cli::setMaxWorkers},
        {"set-limits", tunedeck::cli::setLimits},
    };
    for (const auto& [name, function] : commands) {
        if (command == QLatin1String(name)) {
            return function(args);
        }
    }
    std::fprintf(stderr, "tunedeck-engine: unknown command '%s' (see tunedeck-engine --help)\n",
                 qPrintable(command));
    return tunedeck::kExitBadInput;
}
