<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>AlgorithmCatalog</name>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>unlimited</source>
        <translation>unbegrenzt</translation>
    </message>
    <message>
        <source>no effect</source>
        <translation>ohne Wirkung</translation>
    </message>
    <message>
        <source>not used</source>
        <translation>nicht verwendet</translation>
    </message>
    <message>
        <source>random draws, grid parameters swept (Ray&apos;s BasicVariantGenerator)</source>
        <translation>Zufallsziehungen, Grid-Parameter werden durchlaufen (BasicVariantGenerator von Ray)</translation>
    </message>
    <message>
        <source>every combination of the finite domains (NNI&apos;s grid search)</source>
        <translation>jede Kombination der endlichen Wertebereiche (Grid Search von NNI)</translation>
    </message>
    <message>
        <source>tree-structured Parzen estimator; one or several objectives (Optuna&apos;s TPESampler)</source>
        <translation>Tree-structured Parzen Estimator; ein oder mehrere Ziele (TPESampler von Optuna)</translation>
    </message>
    <message>
        <source>Gaussian-process Bayesian optimisation of numeric domains (Ray&apos;s BayesOptSearch)</source>
        <translation>Bayes&apos;sche Optimierung numerischer Wertebereiche mit Gauß-Prozessen (BayesOptSearch von Ray)</translation>
    </message>
    <message>
        <source>CMA-ES over the numeric parameters (Optuna&apos;s CmaEsSampler)</source>
        <translation>CMA-ES über die numerischen Parameter (CmaEsSampler von Optuna)</translation>
    </message>
    <message>
        <source>the centre of each range</source>
        <translation>die Mitte jedes Bereichs</translation>
    </message>
    <message>
        <source>model-based configs for hyperband; needs scheduler hyperband (HpBandSter&apos;s BOHB)</source>
        <translation>modellbasierte Konfigurationen für HyperBand; benötigt den Scheduler hyperband (BOHB von HpBandSter)</translation>
    </message>
    <message>
        <source>the experiment&apos;s</source>
        <translation>wie im Experiment</translation>
    </message>
    <message>
        <source>runs every trial to the end, in order (Ray&apos;s FIFOScheduler)</source>
        <translation>führt jeden Trial der Reihe nach bis zum Ende aus (FIFOScheduler von Ray)</translation>
    </message>
    <message>
        <source>asynchronous successive halving: stops trials that fall behind at each rung</source>
        <translation>asynchrones Successive Halving: stoppt auf jeder Stufe die Trials, die zurückliegen</translation>
    </message>
    <message>
        <source>median stopping rule: stops trials worse than the median</source>
        <translation>Median-Stoppregel: stoppt Trials, die schlechter als der Median sind</translation>
    </message>
    <message>
        <source>synchronous HyperBand: pauses trials at each milestone, resumes the best</source>
        <translation>synchrones HyperBand: pausiert Trials an jedem Meilenstein und setzt die besten fort</translation>
    </message>
    <message>
        <source>population based training: weak trials copy a strong one and change its config</source>
        <translation>Population Based Training: schwache Trials kopieren einen starken und verändern dessen Konfiguration</translation>
    </message>
    <message>
        <source>population based bandits: PBT with the new config chosen by a GP bandit</source>
        <translation>Population Based Bandits: PBT, bei dem ein GP-Bandit die neue Konfiguration wählt</translation>
    </message>
    <message>
        <source>required</source>
        <translation>erforderlich</translation>
    </message>
    <message>
        <source>replays the config changes of one PBT trial (written by pbt-replay)</source>
        <translation>spielt die Konfigurationsänderungen eines PBT-Trials nach (geschrieben von pbt-replay)</translation>
    </message>
    <message>
        <source>no options</source>
        <translation>keine Optionen</translation>
    </message>
    <message>
        <source>%1 = %2</source>
        <translation>%1 = %2</translation>
    </message>
    <message>
        <source>the base scheduler&apos;s</source>
        <translation>wie beim Basis-Scheduler</translation>
    </message>
    <message>
        <source>gives the leading trials more workers as slots free up, over a base scheduler (Ray&apos;s ResourceChangingScheduler)</source>
        <translation>gibt den führenden Trials mehr Worker, sobald Plätze frei werden, über einem Basis-Scheduler (Rays ResourceChangingScheduler)</translation>
    </message>
</context>
<context>
    <name>ClusterSummary</name>
    <message numerus="yes">
        <source>%n CPU(s)</source>
        <translation>
            <numerusform>%n CPU</numerusform>
            <numerusform>%n CPUs</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 CPUs</source>
        <translation>%1 CPUs</translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s)</source>
        <translation>
            <numerusform>%n GPU</numerusform>
            <numerusform>%n GPUs</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 to %2 workers</source>
        <translation>%1 bis %2 Worker</translation>
    </message>
    <message numerus="yes">
        <source>up to %n worker(s)</source>
        <translation>
            <numerusform>bis zu %n Worker</numerusform>
            <numerusform>bis zu %n Worker</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (%2): %3</source>
        <translation>%1 (%2): %3</translation>
    </message>
    <message>
        <source> (head)</source>
        <translation> (Head)</translation>
    </message>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>und %n weiterer</numerusform>
            <numerusform>und %n weitere</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 runs trials on this machine only.</source>
        <translation>%1 führt Trials nur auf diesem Rechner aus.</translation>
    </message>
    <message>
        <source>%1 lists no node to reach over SSH.</source>
        <translation>%1 nennt keinen Knoten, der über SSH erreichbar ist.</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n node(s) over SSH as %2: %3.</source>
        <translation>
            <numerusform>%1: %n Knoten über SSH als %2: %3.</numerusform>
            <numerusform>%1: %n Knoten über SSH als %2: %3.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 asks Slurm for nodes as trials wait (%n node type(s)): %2.</source>
        <translation>
            <numerusform>%1 fordert Knoten bei Slurm an, wenn Trials warten (%n Knotentyp): %2.</numerusform>
            <numerusform>%1 fordert Knoten bei Slurm an, wenn Trials warten (%n Knotentypen): %2.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 makes nodes with your commands as trials wait (provider command, %n node type(s)): %2.</source>
        <translation>
            <numerusform>%1 erzeugt Knoten mit Ihren Befehlen, wenn Trials warten (Provider command, %n Knotentyp): %2.</numerusform>
            <numerusform>%1 erzeugt Knoten mit Ihren Befehlen, wenn Trials warten (Provider command, %n Knotentypen): %2.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>At most %n worker(s) in all.</source>
        <translation>
            <numerusform>Insgesamt höchstens %n Worker.</numerusform>
            <numerusform>Insgesamt höchstens %n Worker.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ExperimentFields</name>
    <message>
        <source>the command ends with a lone backslash</source>
        <translation>der Befehl endet mit einem einzelnen Backslash</translation>
    </message>
    <message>
        <source>the command has an unterminated &apos; quote</source>
        <translation>der Befehl enthält ein nicht geschlossenes &apos;-Anführungszeichen</translation>
    </message>
    <message>
        <source>the command has an unterminated &quot; quote</source>
        <translation>der Befehl enthält ein nicht geschlossenes &quot;-Anführungszeichen</translation>
    </message>
</context>
<context>
    <name>HelpMenu</name>
    <message>
        <source>No documentation found: share/doc/tunedeck/README.md is not installed beside the app.</source>
        <translation>Keine Dokumentation gefunden: share/doc/tunedeck/README.md ist neben der App nicht installiert.</translation>
    </message>
    <message>
        <source>No program opens %1 on this desktop.</source>
        <translation>Kein Programm auf diesem Desktop öffnet %1.</translation>
    </message>
    <message>
        <source>About Tunedeck</source>
        <translation>Über Tunedeck</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Tunedeck %1&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;Tunedeck %1&lt;/h3&gt;</translation>
    </message>
    <message>
        <source>Hyperparameter tuning: trials on the CPUs and GPUs of this machine or a cluster, watched live and recorded in SQLite.&lt;br&gt;&lt;br&gt;Built from commit %1 with Qt %2.</source>
        <translation>Hyperparameter-Tuning: Trials auf den CPUs und GPUs dieses Rechners oder eines Clusters, live beobachtet und in SQLite aufgezeichnet.&lt;br&gt;&lt;br&gt;Gebaut aus Commit %1 mit Qt %2.</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;Documentation</source>
        <translation>&amp;Dokumentation</translation>
    </message>
    <message>
        <source>&amp;About Tunedeck</source>
        <translation>Ü&amp;ber Tunedeck</translation>
    </message>
</context>
<context>
    <name>NodeUsageModel</name>
    <message>
        <source>%1 (rank %2)</source>
        <translation>%1 (Rang %2)</translation>
    </message>
</context>
<context>
    <name>QApplication</name>
    <message>
        <source>Tunedeck desktop app</source>
        <translation>Tunedeck-Desktop-App</translation>
    </message>
    <message>
        <source>An experiment file to run, or an experiment folder (or its experiment.sqlite) under the engine&apos;s results root to open.</source>
        <translation>Eine Experiment-Datei zum Ausführen oder ein Experiment-Ordner (bzw. dessen experiment.sqlite) unter dem Ergebnis-Stammordner der Engine zum Öffnen.</translation>
    </message>
    <message>
        <source>The local engine&apos;s socket (default %1).</source>
        <translation>Der Socket der lokalen Engine (Standard: %1).</translation>
    </message>
    <message>
        <source>Attach to an engine at tcp:HOST:PORT, or to one on a server through an SSH tunnel: ssh://USER@HOST[:PORT].</source>
        <translation>Mit einer Engine unter tcp:HOST:PORT verbinden oder über einen SSH-Tunnel mit einer Engine auf einem Server: ssh://USER@HOST[:PORT].</translation>
    </message>
    <message>
        <source>The engine&apos;s token, when it listens on TCP (the first line of this file).</source>
        <translation>Das Token der Engine, wenn sie auf TCP lauscht (die erste Zeile dieser Datei).</translation>
    </message>
    <message>
        <source>With ssh://: where the engine listens on the server, unix:PATH or tcp:127.0.0.1:PORT (default: the SSH user&apos;s own `tunedeck-engine serve` socket).</source>
        <translation>Mit ssh://: wo die Engine auf dem Server lauscht, unix:PATH oder tcp:127.0.0.1:PORT (Standard: der Socket des eigenen `tunedeck-engine serve` des SSH-Benutzers).</translation>
    </message>
    <message>
        <source>With ssh://: the private key to log in with (default: the keys of the ssh-agent).</source>
        <translation>Mit ssh://: der private Schlüssel für die Anmeldung (Standard: die Schlüssel des ssh-agent).</translation>
    </message>
    <message>
        <source>With ssh://: the known_hosts file (default ~/.ssh/known_hosts).</source>
        <translation>Mit ssh://: die known_hosts-Datei (Standard: ~/.ssh/known_hosts).</translation>
    </message>
    <message>
        <source>With ssh://: trust the server&apos;s host key when it is not known yet, and record it. A changed key is refused anyway.</source>
        <translation>Mit ssh://: dem Host-Schlüssel des Servers vertrauen, wenn er noch nicht bekannt ist, und ihn speichern. Ein geänderter Schlüssel wird trotzdem abgelehnt.</translation>
    </message>
</context>
<context>
    <name>SshTarget</name>
    <message>
        <source>&apos;%1&apos; is not an engine address on the server: write unix:PATH or tcp:HOST:PORT (or nothing, for the default socket)</source>
        <translation>„%1“ ist keine Engine-Adresse auf dem Server: Schreiben Sie unix:PATH oder tcp:HOST:PORT (oder nichts, für den Standard-Socket)</translation>
    </message>
    <message>
        <source>the default engine socket</source>
        <translation>den Standard-Socket der Engine</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an SSH address: write ssh://USER@HOST[:PORT]</source>
        <translation>„%1“ ist keine SSH-Adresse: Schreiben Sie ssh://USER@HOST[:PORT]</translation>
    </message>
    <message>
        <source>&apos;%1&apos; names no user: write ssh://USER@HOST[:PORT]</source>
        <translation>„%1“ nennt keinen Benutzer: Schreiben Sie ssh://USER@HOST[:PORT]</translation>
    </message>
    <message>
        <source>unexpected answer to &apos;%1&apos; on the server: %2</source>
        <translation>unerwartete Antwort auf „%1“ auf dem Server: %2</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::AlgorithmOptionsBox</name>
    <message>
        <source>%1 (default)</source>
        <translation>%1 (Standard)</translation>
    </message>
    <message>
        <source>%1 is written over several lines: edit it in the YAML tab.</source>
        <translation>%1 steht über mehrere Zeilen: Bearbeiten Sie es im YAML-Tab.</translation>
    </message>
    <message>
        <source>%1 as the file writes it; the engine&apos;s check says whether it applies here.</source>
        <translation>%1 wie in der Datei; die Prüfung der Engine sagt, ob es hier gilt.</translation>
    </message>
    <message>
        <source>%1 as the file sets it; clear it for the default, %2.</source>
        <translation>%1 wie in der Datei gesetzt; leeren Sie das Feld für den Standardwert %2.</translation>
    </message>
    <message>
        <source>%1 is not in the file: the default, %2, applies.</source>
        <translation>%1 steht nicht in der Datei: Es gilt der Standardwert %2.</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::AnalysisTabs</name>
    <message>
        <source>No log lines yet. Select a trial to follow its log; without a selection, the experiment&apos;s warnings and the trials&apos; log messages are shown here.</source>
        <translation>Noch keine Logzeilen. Wählen Sie einen Trial, um seinem Log zu folgen; ohne Auswahl stehen hier die Warnungen des Experiments und die Logmeldungen der Trials.</translation>
    </message>
    <message>
        <source>Max workers: %1</source>
        <translation>Max. Worker: %1</translation>
    </message>
    <message>
        <source>Curves</source>
        <translation>Kurven</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Vergleich</translation>
    </message>
    <message>
        <source>Parallel coordinates</source>
        <translation>Parallele Koordinaten</translation>
    </message>
    <message>
        <source>Parameter vs metric</source>
        <translation>Parameter vs. Metrik</translation>
    </message>
    <message>
        <source>Study plots</source>
        <translation>Studien-Plots</translation>
    </message>
    <message>
        <source>Importance</source>
        <translation>Wichtigkeit</translation>
    </message>
    <message>
        <source>PBT lineage</source>
        <translation>PBT-Abstammung</translation>
    </message>
    <message>
        <source>Nodes and GPUs</source>
        <translation>Knoten/GPUs</translation>
    </message>
    <message>
        <source>Trial</source>
        <translation>Trial</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>Log</translation>
    </message>
    <message>
        <source>by iteration</source>
        <translation>nach Iteration</translation>
    </message>
    <message>
        <source>by wall time</source>
        <translation>nach Wall-Clock-Zeit</translation>
    </message>
    <message>
        <source>Log scale</source>
        <translation>Logarithmische Skala</translation>
    </message>
    <message>
        <source>Legend</source>
        <translation>Legende</translation>
    </message>
    <message>
        <source>Names the curves shown, in their colours; exported charts carry it</source>
        <translation>Benennt die gezeigten Kurven in ihren Farben; exportierte Diagramme enthalten sie</translation>
    </message>
    <message>
        <source>Smoothing</source>
        <translation>Glättung</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1, %2</translation>
    </message>
    <message>
        <source>iteration</source>
        <translation>Iteration</translation>
    </message>
    <message>
        <source>status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>%1 kann nicht geschrieben werden</translation>
    </message>
    <message>
        <source>Pareto front</source>
        <translation>Pareto-Front</translation>
    </message>
    <message>
        <source>on the front</source>
        <translation>auf der Front</translation>
    </message>
    <message>
        <source>dominated</source>
        <translation>dominiert</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::AttachDialog</name>
    <message>
        <source>Unknown host key</source>
        <translation>Unbekannter Host-Schlüssel</translation>
    </message>
    <message>
        <source>The host key of %1 is not known.</source>
        <translation>Der Host-Schlüssel von %1 ist nicht bekannt.</translation>
    </message>
    <message>
        <source>Its fingerprint is

%1

Compare it with the server&apos;s own (ssh-keygen -lf on its host key) before trusting it. Trusted keys are recorded in known_hosts.</source>
        <translation>Sein Fingerabdruck lautet

%1

Vergleichen Sie ihn mit dem des Servers (ssh-keygen -lf auf dessen Host-Schlüssel), bevor Sie ihm vertrauen. Vertrauenswürdige Schlüssel werden in known_hosts gespeichert.</translation>
    </message>
    <message>
        <source>Trust this key and connect</source>
        <translation>Diesem Schlüssel vertrauen und verbinden</translation>
    </message>
    <message>
        <source>an engine on TCP needs its token: give its token file</source>
        <translation>eine Engine auf TCP braucht ihr Token: Geben Sie ihre Token-Datei an</translation>
    </message>
    <message>
        <source>cannot read the token file %1: %2</source>
        <translation>die Token-Datei %1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>the token file %1 has an empty first line</source>
        <translation>die erste Zeile der Token-Datei %1 ist leer</translation>
    </message>
    <message>
        <source>Attach to a server over SSH</source>
        <translation>Über SSH mit einem Server verbinden</translation>
    </message>
    <message>
        <source>user@host</source>
        <translation>benutzer@host</translation>
    </message>
    <message>
        <source>&amp;Server:</source>
        <translation>&amp;Server:</translation>
    </message>
    <message>
        <source>&amp;Port:</source>
        <translation>&amp;Port:</translation>
    </message>
    <message>
        <source>Keys of the ssh-&amp;agent</source>
        <translation>Schlüssel des ssh-&amp;agent</translation>
    </message>
    <message>
        <source>&amp;Key file:</source>
        <translation>Schlüssel&amp;datei:</translation>
    </message>
    <message>
        <source>~/.ssh/id_ed25519</source>
        <translation>~/.ssh/id_ed25519</translation>
    </message>
    <message>
        <source>Browse...</source>
        <translation>Durchsuchen...</translation>
    </message>
    <message>
        <source>Private key</source>
        <translation>Privater Schlüssel</translation>
    </message>
    <message>
        <source>Log in with:</source>
        <translation>Anmelden mit:</translation>
    </message>
    <message>
        <source>the default socket of serve ($XDG_RUNTIME_DIR/tunedeck/engine.sock)</source>
        <translation>der Standard-Socket von serve ($XDG_RUNTIME_DIR/tunedeck/engine.sock)</translation>
    </message>
    <message>
        <source>Where the engine listens on the server: unix:PATH, or tcp:127.0.0.1:PORT with its token. Empty: the SSH user&apos;s own `tunedeck-engine serve`.</source>
        <translation>Wo die Engine auf dem Server lauscht: unix:PATH oder tcp:127.0.0.1:PORT mit ihrem Token. Leer: das eigene `tunedeck-engine serve` des SSH-Benutzers.</translation>
    </message>
    <message>
        <source>&amp;Engine on the server:</source>
        <translation>&amp;Engine auf dem Server:</translation>
    </message>
    <message>
        <source>a local file whose first line is the engine&apos;s token</source>
        <translation>eine lokale Datei, deren erste Zeile das Token der Engine ist</translation>
    </message>
    <message>
        <source>&amp;Token file:</source>
        <translation>&amp;Token-Datei:</translation>
    </message>
    <message>
        <source>Known &amp;hosts:</source>
        <translation>Bekannte &amp;Hosts:</translation>
    </message>
    <message>
        <source>&amp;Attach</source>
        <translation>&amp;Verbinden</translation>
    </message>
    <message>
        <source>Not attached: the server&apos;s host key is not known yet.</source>
        <translation>Nicht verbunden: Der Host-Schlüssel des Servers ist noch nicht bekannt.</translation>
    </message>
    <message>
        <source>%1

Fingerprint: %2</source>
        <translation>%1

Fingerabdruck: %2</translation>
    </message>
    <message>
        <source>Attached to the engine on %1.</source>
        <translation>Mit der Engine auf %1 verbunden.</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::BestTrial</name>
    <message>
        <source>last result</source>
        <translation>letztes Ergebnis</translation>
    </message>
    <message>
        <source>best result</source>
        <translation>bestes Ergebnis</translation>
    </message>
    <message>
        <source>average of all results</source>
        <translation>Mittel aller Ergebnisse</translation>
    </message>
    <message>
        <source>average of the last 5</source>
        <translation>Mittel der letzten 5</translation>
    </message>
    <message>
        <source>average of the last 10</source>
        <translation>Mittel der letzten 10</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ClusterAutoscalingBox</name>
    <message>
        <source>Node types and autoscaling</source>
        <translation>Knotentypen und Autoscaling</translation>
    </message>
    <message>
        <source>Launches waiting to become ready at once: at most 5, or this many times the nodes up</source>
        <translation>Gleichzeitig ausstehende Starts: höchstens 5 oder so viele mal die laufenden Knoten</translation>
    </message>
    <message>
        <source>A node without trials this long is terminated (never below its type&apos;s min workers)</source>
        <translation>Ein Knoten, der so lange keine Trials hat, wird beendet (nie unter die Min. Worker seines Typs)</translation>
    </message>
    <message>
        <source>Upscaling speed</source>
        <translation>Hochskalierungsrate</translation>
    </message>
    <message>
        <source>Idle timeout (minutes)</source>
        <translation>Leerlauf-Timeout (Minuten)</translation>
    </message>
    <message>
        <source>tunedeck-worker on the compute nodes</source>
        <translation>tunedeck-worker auf den Rechenknoten</translation>
    </message>
    <message>
        <source>tunedeck-worker, found in PATH</source>
        <translation>tunedeck-worker, im PATH gesucht</translation>
    </message>
    <message>
        <source>Create</source>
        <translation>Erstellen</translation>
    </message>
    <message>
        <source>Terminate</source>
        <translation>Beenden</translation>
    </message>
    <message>
        <source>List</source>
        <translation>Auflisten</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>Verbinden</translation>
    </message>
    <message>
        <source>Run as /bin/sh -c in the cluster file&apos;s folder; placeholders such as {node}, {id}, {address} and {node_config.KEY} are filled in</source>
        <translation>Ausgeführt mit /bin/sh -c im Ordner der Cluster-Datei; Platzhalter wie {node}, {id}, {address} und {node_config.KEY} werden eingesetzt</translation>
    </message>
    <message>
        <source>Node type</source>
        <translation>Knotentyp</translation>
    </message>
    <message>
        <source>CPUs</source>
        <translation>CPUs</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPUs</translation>
    </message>
    <message>
        <source>Min workers</source>
        <translation>Min. Worker</translation>
    </message>
    <message>
        <source>Max workers</source>
        <translation>Max. Worker</translation>
    </message>
    <message>
        <source>node_config</source>
        <translation>node_config</translation>
    </message>
    <message>
        <source>Empty: the cluster&apos;s max workers</source>
        <translation>Leer: die Max. Worker des Clusters</translation>
    </message>
    <message>
        <source>A flow mapping: {partition: gpu, mem: 16G}</source>
        <translation>Ein Flow-Mapping: {partition: gpu, mem: 16G}</translation>
    </message>
    <message>
        <source>Add a node type</source>
        <translation>Knotentyp hinzufügen</translation>
    </message>
    <message>
        <source>Remove the node type</source>
        <translation>Knotentyp entfernen</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ClusterCommandRunner</name>
    <message>
        <source>Cannot start %1: %2</source>
        <translation>%1 kann nicht gestartet werden: %2</translation>
    </message>
    <message>
        <source>cluster %1 cancelled.</source>
        <translation>cluster %1 abgebrochen.</translation>
    </message>
    <message>
        <source>cluster %1 ended abnormally (the engine crashed).</source>
        <translation>cluster %1 wurde unerwartet beendet (die Engine ist abgestürzt).</translation>
    </message>
    <message>
        <source>cluster %1 succeeded.</source>
        <translation>cluster %1 war erfolgreich.</translation>
    </message>
    <message>
        <source>cluster %1 failed (exit status %2).</source>
        <translation>cluster %1 ist fehlgeschlagen (Exit-Status %2).</translation>
    </message>
    <message>
        <source>Use Test connection to see an unknown host key and accept it.</source>
        <translation>Mit „Verbindung testen“ sehen Sie einen unbekannten Host-Schlüssel und können ihn akzeptieren.</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ClusterConnectionCheck</name>
    <message numerus="yes">
        <source>%1, %n CPU(s)</source>
        <translation>
            <numerusform>%1, %n CPU</numerusform>
            <numerusform>%1, %n CPUs</numerusform>
        </translation>
    </message>
    <message>
        <source>cannot create folder %1</source>
        <translation>Ordner %1 kann nicht angelegt werden</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Abgebrochen.</translation>
    </message>
    <message>
        <source>no answer to `%1` within %2 s</source>
        <translation>keine Antwort auf `%1` innerhalb von %2 s</translation>
    </message>
    <message>
        <source>`%1` failed (exit status %2)</source>
        <translation>`%1` ist fehlgeschlagen (Exit-Status %2)</translation>
    </message>
    <message>
        <source>The host key of %1 is not known yet: it presents %2. Compare it with the host&apos;s own (ssh-keygen -lf on its public host key), then Accept it to add it to %3.</source>
        <translation>Der Host-Schlüssel von %1 ist noch nicht bekannt: Der Host legt %2 vor. Vergleichen Sie ihn mit dem eigenen Schlüssel des Hosts (ssh-keygen -lf auf dessen öffentlichem Host-Schlüssel) und fügen Sie ihn dann mit „Akzeptieren“ zu %3 hinzu.</translation>
    </message>
    <message>
        <source>Refused: the host key has changed. %1</source>
        <translation>Abgelehnt: Der Host-Schlüssel hat sich geändert. %1</translation>
    </message>
    <message>
        <source>The login was refused: %1</source>
        <translation>Die Anmeldung wurde abgelehnt: %1</translation>
    </message>
    <message>
        <source>Unreachable: %1</source>
        <translation>Nicht erreichbar: %1</translation>
    </message>
    <message>
        <source>Refused: the host now presents the key %1, not %2 that you accepted. Nothing was written to %3.</source>
        <translation>Abgelehnt: Der Host legt jetzt den Schlüssel %1 vor, nicht den von Ihnen akzeptierten Schlüssel %2. In %3 wurde nichts geschrieben.</translation>
    </message>
    <message>
        <source>The host key %1 cannot be added to %2: %3</source>
        <translation>Der Host-Schlüssel %1 kann nicht zu %2 hinzugefügt werden: %3</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ClusterConnectionView</name>
    <message>
        <source>connecting…</source>
        <translation>wird verbunden…</translation>
    </message>
    <message>
        <source>reachable</source>
        <translation>erreichbar</translation>
    </message>
    <message>
        <source>unknown host key</source>
        <translation>unbekannter Host-Schlüssel</translation>
    </message>
    <message>
        <source>host key changed: refused</source>
        <translation>Host-Schlüssel geändert: abgelehnt</translation>
    </message>
    <message>
        <source>login refused</source>
        <translation>Anmeldung abgelehnt</translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation>nicht erreichbar</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>Knoten</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Login</source>
        <translation>Anmeldung</translation>
    </message>
    <message>
        <source>Host key</source>
        <translation>Host-Schlüssel</translation>
    </message>
    <message>
        <source>Machine</source>
        <translation>Rechner</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source> (accepted)</source>
        <translation> (akzeptiert)</translation>
    </message>
    <message>
        <source>Accept</source>
        <translation>Akzeptieren</translation>
    </message>
    <message>
        <source>Trust %1 for %2 and add it to known_hosts</source>
        <translation>%1 für %2 vertrauen und zu known_hosts hinzufügen</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ClusterEditor</name>
    <message>
        <source>Test connection</source>
        <translation>Verbindung testen</translation>
    </message>
    <message>
        <source>Log in to every node with this file&apos;s auth, as it is now</source>
        <translation>Mit den Anmeldedaten (auth) dieser Datei in ihrem jetzigen Stand auf jedem Knoten anmelden</translation>
    </message>
    <message>
        <source>Up</source>
        <translation>Hochfahren</translation>
    </message>
    <message>
        <source>Save, then set up every node: the agent, file mounts, setup commands</source>
        <translation>Speichern, dann jeden Knoten einrichten: Agent, Datei-Mounts, Setup-Befehle</translation>
    </message>
    <message>
        <source>Down</source>
        <translation>Herunterfahren</translation>
    </message>
    <message>
        <source>Save, then stop the agents and trials on every node</source>
        <translation>Speichern, dann die Agenten und Trials auf jedem Knoten stoppen</translation>
    </message>
    <message>
        <source>Untitled cluster</source>
        <translation>Unbenannter Cluster</translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>Verbindung</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>Ausgabe</translation>
    </message>
    <message>
        <source>The cluster has no file yet: save it as one.</source>
        <translation>Der Cluster hat noch keine Datei: Speichern Sie ihn als Datei.</translation>
    </message>
    <message>
        <source>The YAML text does not parse (line %1: %2). Fix it in the YAML tab to use the form.</source>
        <translation>Der YAML-Text lässt sich nicht parsen (Zeile %1: %2). Korrigieren Sie ihn im Tab YAML, um das Formular zu verwenden.</translation>
    </message>
    <message numerus="yes">
        <source>%n warning(s).</source>
        <translation>
            <numerusform>%n Warnung.</numerusform>
            <numerusform>%n Warnungen.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s) to fix before the cluster can be used.</source>
        <translation>
            <numerusform>%n Problem muss behoben werden, bevor der Cluster verwendet werden kann.</numerusform>
            <numerusform>%n Probleme müssen behoben werden, bevor der Cluster verwendet werden kann.</numerusform>
        </translation>
    </message>
    <message>
        <source>Line %1: %2</source>
        <translation>Zeile %1: %2</translation>
    </message>
    <message>
        <source>Fix the problems first: the nodes cannot be reached from a cluster file that does not load.</source>
        <translation>Beheben Sie zuerst die Probleme: Mit einer Cluster-Datei, die sich nicht laden lässt, sind die Knoten nicht erreichbar.</translation>
    </message>
    <message>
        <source>Provider local: trials run on this machine; there is nothing to connect to.</source>
        <translation>Provider local: Trials laufen auf diesem Rechner; es gibt nichts, womit verbunden werden müsste.</translation>
    </message>
    <message>
        <source>Cluster %1</source>
        <translation>Cluster %1</translation>
    </message>
    <message>
        <source>Open cluster file</source>
        <translation>Cluster-Datei öffnen</translation>
    </message>
    <message>
        <source>&amp;Cluster</source>
        <translation>&amp;Cluster</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <source>&amp;Test connection</source>
        <translation>Verbindung &amp;testen</translation>
    </message>
    <message>
        <source>Ctrl+T</source>
        <translation>Ctrl+T</translation>
    </message>
    <message>
        <source>&amp;Up</source>
        <translation>&amp;Hochfahren</translation>
    </message>
    <message>
        <source>Ctrl+U</source>
        <translation>Ctrl+U</translation>
    </message>
    <message>
        <source>&amp;Down</source>
        <translation>Herunter&amp;fahren</translation>
    </message>
    <message>
        <source>Tunedeck cluster</source>
        <translation>Tunedeck-Cluster</translation>
    </message>
    <message>
        <source>Provider %1: nodes are made as trials wait; there is none to connect to yet.</source>
        <translation>Provider %1: Knoten entstehen, wenn Trials warten; noch gibt es keinen, mit dem verbunden werden könnte.</translation>
    </message>
    <message>
        <source>Valid: %1</source>
        <translation>Gültig: %1</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ClusterForm</name>
    <message>
        <source>%1 — not a known value</source>
        <translation>%1 — kein bekannter Wert</translation>
    </message>
    <message>
        <source>Add a row</source>
        <translation>Zeile hinzufügen</translation>
    </message>
    <message>
        <source>Remove the row</source>
        <translation>Zeile entfernen</translation>
    </message>
    <message>
        <source>Move the row up</source>
        <translation>Zeile nach oben verschieben</translation>
    </message>
    <message>
        <source>Move the row down</source>
        <translation>Zeile nach unten verschieben</translation>
    </message>
    <message>
        <source>Choose a file</source>
        <translation>Datei auswählen</translation>
    </message>
    <message>
        <source>Choose</source>
        <translation>Auswählen</translation>
    </message>
    <message>
        <source>ssh — the nodes below, reached over SSH</source>
        <translation>ssh — die Knoten unten, erreicht über SSH</translation>
    </message>
    <message>
        <source>local — this machine only</source>
        <translation>local — nur dieser Rechner</translation>
    </message>
    <message>
        <source>copy — checkpoints travel to this machine over SFTP</source>
        <translation>copy — Checkpoints werden per SFTP auf diesen Rechner übertragen</translation>
    </message>
    <message>
        <source>shared — every node sees the experiment folder (NFS)</source>
        <translation>shared — jeder Knoten sieht den Experiment-Ordner (NFS)</translation>
    </message>
    <message>
        <source>15</source>
        <translation>15</translation>
    </message>
    <message>
        <source>0</source>
        <translation>0</translation>
    </message>
    <message>
        <source>every worker listed</source>
        <translation>alle aufgeführten Worker</translation>
    </message>
    <message>
        <source>what each node has</source>
        <translation>was jeder Knoten hat</translation>
    </message>
    <message>
        <source>A node whose agent is silent this long is lost; its trials fail over.</source>
        <translation>Ein Knoten, dessen Agent so lange schweigt, gilt als verloren; seine Trials werden auf andere Knoten verlagert.</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>Cluster</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>names the cluster&apos;s folder on every node</source>
        <translation>benennt den Ordner des Clusters auf jedem Knoten</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Provider</translation>
    </message>
    <message>
        <source>Storage</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <source>Node timeout (s)</source>
        <translation>Knoten-Timeout (s)</translation>
    </message>
    <message>
        <source>Folder on the nodes</source>
        <translation>Ordner auf den Knoten</translation>
    </message>
    <message>
        <source>to</source>
        <translation>bis</translation>
    </message>
    <message>
        <source>Workers</source>
        <translation>Worker</translation>
    </message>
    <message>
        <source>CPUs</source>
        <translation>CPUs</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPUs</translation>
    </message>
    <message>
        <source>Every node offers</source>
        <translation>Jeder Knoten bietet</translation>
    </message>
    <message>
        <source>Login (auth)</source>
        <translation>Anmeldung (auth)</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <source>the same on every node</source>
        <translation>auf jedem Knoten derselbe</translation>
    </message>
    <message>
        <source>Private key</source>
        <translation>Privater Schlüssel</translation>
    </message>
    <message>
        <source>keys of ssh-agent</source>
        <translation>Schlüssel des ssh-agent</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>Port</translation>
    </message>
    <message>
        <source>known_hosts</source>
        <translation>known_hosts</translation>
    </message>
    <message>
        <source>Relative paths start from the cluster file&apos;s folder.</source>
        <translation>Relative Pfade gehen vom Ordner der Cluster-Datei aus.</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>Rolle</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>Host</translation>
    </message>
    <message>
        <source>Empty: the port of Login</source>
        <translation>Leer: der Port unter „Anmeldung“</translation>
    </message>
    <message>
        <source>Empty: what every node offers, else what the node has</source>
        <translation>Leer: was jeder Knoten bietet, sonst was der Knoten hat</translation>
    </message>
    <message>
        <source>Add a worker node</source>
        <translation>Worker-Knoten hinzufügen</translation>
    </message>
    <message>
        <source>Remove the worker node</source>
        <translation>Worker-Knoten entfernen</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>Knoten</translation>
    </message>
    <message>
        <source>The engine runs on this machine; every node listed, the head first, runs trials.</source>
        <translation>Die Engine läuft auf diesem Rechner; jeder aufgeführte Knoten, zuerst der Head, führt Trials aus.</translation>
    </message>
    <message>
        <source>Initialization</source>
        <translation>Initialisierung</translation>
    </message>
    <message>
        <source>Shell commands run first on every node</source>
        <translation>Shell-Befehle, die zuerst auf jedem Knoten laufen</translation>
    </message>
    <message>
        <source>Setup</source>
        <translation>Setup</translation>
    </message>
    <message>
        <source>Shell commands run on every node after the file mounts are copied</source>
        <translation>Shell-Befehle, die nach dem Kopieren der Datei-Mounts auf jedem Knoten laufen</translation>
    </message>
    <message>
        <source>Worker setup</source>
        <translation>Worker-Setup</translation>
    </message>
    <message>
        <source>Shell commands run after the setup on every node but the head</source>
        <translation>Shell-Befehle, die nach dem Setup auf jedem Knoten außer dem Head laufen</translation>
    </message>
    <message>
        <source>Not copied</source>
        <translation>Nicht kopiert</translation>
    </message>
    <message>
        <source>Patterns of paths in the file mounts that are not copied</source>
        <translation>Muster der Pfade in den Datei-Mounts, die nicht kopiert werden</translation>
    </message>
    <message>
        <source>Commands</source>
        <translation>Befehle</translation>
    </message>
    <message>
        <source>On the node</source>
        <translation>Auf dem Knoten</translation>
    </message>
    <message>
        <source>From this machine</source>
        <translation>Von diesem Rechner</translation>
    </message>
    <message>
        <source>Add a file mount</source>
        <translation>Datei-Mount hinzufügen</translation>
    </message>
    <message>
        <source>Remove the file mount</source>
        <translation>Datei-Mount entfernen</translation>
    </message>
    <message>
        <source>File mounts</source>
        <translation>Datei-Mounts</translation>
    </message>
    <message>
        <source>Copied to every node before the setup commands; local paths start from the cluster file&apos;s folder.</source>
        <translation>Werden vor den Setup-Befehlen auf jeden Knoten kopiert; lokale Pfade gehen vom Ordner der Cluster-Datei aus.</translation>
    </message>
    <message>
        <source>head</source>
        <translation>Head</translation>
    </message>
    <message>
        <source>worker</source>
        <translation>Worker</translation>
    </message>
    <message>
        <source>provider.head_ip is not written yet</source>
        <translation>provider.head_ip ist noch nicht eingetragen</translation>
    </message>
    <message>
        <source>slurm — allocations the autoscaler asks Slurm for</source>
        <translation>slurm — Allokationen, die der Autoscaler bei Slurm anfordert</translation>
    </message>
    <message>
        <source>command — nodes your own commands make (clouds, Kubernetes)</source>
        <translation>command — Knoten, die Ihre eigenen Befehle erstellen (Clouds, Kubernetes)</translation>
    </message>
    <message>
        <source>the node types&apos; max workers added up</source>
        <translation>die Max. Worker der Knotentypen zusammen</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ClusterOutputPane</name>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>Läuft…</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ContourView</name>
    <message>
        <source>&amp;x:</source>
        <translation>&amp;x:</translation>
    </message>
    <message>
        <source>&amp;y:</source>
        <translation>&amp;y:</translation>
    </message>
    <message>
        <source>A contour needs two parameters.</source>
        <translation>Eine Höhenlinienkarte braucht zwei Parameter.</translation>
    </message>
    <message>
        <source>Pick two different parameters.</source>
        <translation>Wählen Sie zwei verschiedene Parameter.</translation>
    </message>
    <message>
        <source>No trial has reported “%1” yet.</source>
        <translation>Noch kein Trial hat „%1“ gemeldet.</translation>
    </message>
    <message>
        <source>No trial has both parameters and a value.</source>
        <translation>Kein Trial hat beide Parameter und einen Wert.</translation>
    </message>
    <message numerus="yes">
        <source>%n trial(s) drawn</source>
        <translation>
            <numerusform>%n Trial gezeichnet</numerusform>
            <numerusform>%n Trials gezeichnet</numerusform>
        </translation>
    </message>
    <message>
        <source>best</source>
        <translation>bester</translation>
    </message>
    <message>
        <source>worst</source>
        <translation>schlechtester</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::CurveMetricPicker</name>
    <message>
        <source>The metric the curves show. The bold row, the best trial&apos;s thick curve and the table&apos;s objective columns stay the experiment&apos;s objective.</source>
        <translation>Die Metrik, die die Kurven zeigen. Die fett gedruckte Zeile, die dicke Kurve des besten Trials und die Spalten des Ziels in der Tabelle bleiben beim Ziel des Experiments.</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>Metrik</translation>
    </message>
    <message>
        <source>%1 (objective)</source>
        <translation>%1 (Ziel)</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::EdfView</name>
    <message>
        <source>Share of trials with a value at or below each value</source>
        <translation>Anteil der Trials mit einem Wert bis einschließlich jedem Wert</translation>
    </message>
    <message>
        <source>No experiment shown.</source>
        <translation>Kein Experiment angezeigt.</translation>
    </message>
    <message>
        <source>No trial has reported “%1” yet.</source>
        <translation>Noch kein Trial hat „%1“ gemeldet.</translation>
    </message>
    <message>
        <source>share of trials</source>
        <translation>Anteil der Trials</translation>
    </message>
    <message numerus="yes">
        <source>%n trial(s)</source>
        <translation>
            <numerusform>%n Trial</numerusform>
            <numerusform>%n Trials</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tunedeck::app::EditorWindow</name>
    <message>
        <source>Untitled</source>
        <translation>Unbenannt</translation>
    </message>
    <message>
        <source>%1[*] - %2 - %3</source>
        <translation>%1[*] - %2 - %3</translation>
    </message>
    <message>
        <source>%1[*] - %2</source>
        <translation>%1[*] - %2</translation>
    </message>
    <message>
        <source>Save as</source>
        <translation>Speichern unter</translation>
    </message>
    <message>
        <source>YAML files (*.yaml *.yml)</source>
        <translation>YAML-Dateien (*.yaml *.yml)</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>the untitled file</source>
        <translation>die unbenannte Datei</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>Ungespeicherte Änderungen</translation>
    </message>
    <message>
        <source>Save the changes to %1 before closing?</source>
        <translation>Änderungen an %1 vor dem Schließen speichern?</translation>
    </message>
    <message>
        <source>Your changes are lost if you do not save them.</source>
        <translation>Ohne Speichern gehen Ihre Änderungen verloren.</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>Verwerfen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::EngineConnection</name>
    <message>
        <source>Not attached to an engine</source>
        <translation>Mit keiner Engine verbunden</translation>
    </message>
    <message>
        <source>Engine %1, results in %2</source>
        <translation>Engine %1, Ergebnisse in %2</translation>
    </message>
    <message>
        <source>Engine %1 on %2, results in %3 there</source>
        <translation>Engine %1 auf %2, Ergebnisse dort in %3</translation>
    </message>
    <message>
        <source>Engine connection lost (%1); reconnecting...</source>
        <translation>Verbindung zur Engine verloren (%1); Verbindung wird wiederhergestellt...</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ExperimentEditor</name>
    <message>
        <source>Search space</source>
        <translation>Suchraum</translation>
    </message>
    <message>
        <source>Untitled experiment</source>
        <translation>Unbenanntes Experiment</translation>
    </message>
    <message>
        <source>The experiment has no file yet: save it as one.</source>
        <translation>Das Experiment hat noch keine Datei: Speichern Sie es als Datei.</translation>
    </message>
    <message>
        <source>The YAML text does not parse (line %1: %2). Fix it in the YAML tab to use the form.</source>
        <translation>Der YAML-Text lässt sich nicht parsen (Zeile %1: %2). Korrigieren Sie ihn im Tab YAML, um das Formular zu verwenden.</translation>
    </message>
    <message>
        <source>No engine connected: the experiment is checked once the app is attached to one.</source>
        <translation>Keine Engine verbunden: Das Experiment wird geprüft, sobald die App mit einer Engine verbunden ist.</translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation>Wird geprüft…</translation>
    </message>
    <message>
        <source>The engine could not check the experiment: %1</source>
        <translation>Die Engine konnte das Experiment nicht prüfen: %1</translation>
    </message>
    <message numerus="yes">
        <source>%n warning(s).</source>
        <translation>
            <numerusform>%n Warnung.</numerusform>
            <numerusform>%n Warnungen.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s) to fix before it can run.</source>
        <translation>
            <numerusform>%n Problem muss vor dem Start behoben werden.</numerusform>
            <numerusform>%n Probleme müssen vor dem Start behoben werden.</numerusform>
        </translation>
    </message>
    <message>
        <source>Line %1: %2</source>
        <translation>Zeile %1: %2</translation>
    </message>
    <message>
        <source>%1, line %2: %3</source>
        <translation>%1, Zeile %2: %3</translation>
    </message>
    <message>
        <source>The first configs the run would try, with this seed and searcher</source>
        <translation>Die ersten Konfigurationen, die der Lauf mit diesem Seed und Suchalgorithmus ausprobieren würde</translation>
    </message>
    <message>
        <source>Sampled configs (the first the run would try):</source>
        <translation>Gesampelte Konfigurationen (die ersten, die der Lauf ausprobieren würde):</translation>
    </message>
    <message>
        <source>Not started: no engine is connected.</source>
        <translation>Nicht gestartet: keine Engine verbunden.</translation>
    </message>
    <message>
        <source>Not started: %1</source>
        <translation>Nicht gestartet: %1</translation>
    </message>
    <message>
        <source>Not started: the engine could not check the experiment: %1</source>
        <translation>Nicht gestartet: Die Engine konnte das Experiment nicht prüfen: %1</translation>
    </message>
    <message>
        <source>Not started: fix the problems listed below first.</source>
        <translation>Nicht gestartet: Beheben Sie zuerst die unten aufgeführten Probleme.</translation>
    </message>
    <message>
        <source>Valid: %1, search %2, scheduler %3, %4.</source>
        <translation>Gültig: %1, Suchalgorithmus %2, Scheduler %3, %4.</translation>
    </message>
    <message numerus="yes">
        <source>%n parameter(s)</source>
        <translation>
            <numerusform>%n Parameter</numerusform>
            <numerusform>%n Parameter</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n trial(s)</source>
        <translation>
            <numerusform>%n Trial</numerusform>
            <numerusform>%n Trials</numerusform>
        </translation>
    </message>
    <message>
        <source>unbounded trials</source>
        <translation>Trials ohne feste Anzahl</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ExperimentEditorWindow</name>
    <message>
        <source>Tunedeck editor</source>
        <translation>Tunedeck-Editor</translation>
    </message>
    <message>
        <source>&amp;Experiment</source>
        <translation>&amp;Experiment</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Ausführen</translation>
    </message>
    <message>
        <source>Ctrl+Return</source>
        <translation>Ctrl+Return</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ExperimentForm</name>
    <message>
        <source>names the experiment and its results folder</source>
        <translation>benennt das Experiment und seinen Ergebnisordner</translation>
    </message>
    <message>
        <source>the experiment file&apos;s folder</source>
        <translation>der Ordner der Experiment-Datei</translation>
    </message>
    <message>
        <source>e.g. loss; several: loss, latency</source>
        <translation>z. B. loss; mehrere: loss, latency</translation>
    </message>
    <message>
        <source>min or max</source>
        <translation>min oder max</translation>
    </message>
    <message>
        <source>as many as resources allow</source>
        <translation>so viele, wie die Ressourcen erlauben</translation>
    </message>
    <message>
        <source>only when the trial saves on its own</source>
        <translation>nur wenn der Trial selbst speichert</translation>
    </message>
    <message>
        <source>unlimited retries</source>
        <translation>unbegrenzt viele Wiederholungen</translation>
    </message>
    <message>
        <source>Experiment</source>
        <translation>Experiment</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <source>Working folder</source>
        <translation>Arbeitsordner</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>Metrik</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>Modus</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>Samples</translation>
    </message>
    <message>
        <source>Trials at once</source>
        <translation>Trials gleichzeitig</translation>
    </message>
    <message>
        <source>Search and scheduling</source>
        <translation>Suche und Scheduling</translation>
    </message>
    <message>
        <source>Search algorithm</source>
        <translation>Suchalgorithmus</translation>
    </message>
    <message>
        <source>Scheduler</source>
        <translation>Scheduler</translation>
    </message>
    <message>
        <source>Checkpoint every</source>
        <translation>Checkpoint alle</translation>
    </message>
    <message>
        <source>Retries per trial</source>
        <translation>Wiederholungen pro Trial</translation>
    </message>
    <message>
        <source> iterations</source>
        <translation> Iterationen</translation>
    </message>
    <message>
        <source>One argument per row, passed to the program as it is: no shell splits or expands it. {name} is replaced by that parameter&apos;s value.</source>
        <translation>Ein Argument pro Zeile, unverändert an das Programm übergeben: Keine Shell teilt oder expandiert es. {name} wird durch den Wert dieses Parameters ersetzt.</translation>
    </message>
    <message>
        <source>Add an argument</source>
        <translation>Argument hinzufügen</translation>
    </message>
    <message>
        <source>Remove the argument</source>
        <translation>Argument entfernen</translation>
    </message>
    <message>
        <source>Move the argument up</source>
        <translation>Argument nach oben verschieben</translation>
    </message>
    <message>
        <source>Move the argument down</source>
        <translation>Argument nach unten verschieben</translation>
    </message>
    <message>
        <source>argument</source>
        <translation>Argument</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source> (default)</source>
        <translation> (Standard)</translation>
    </message>
    <message>
        <source>%1 — not a known name</source>
        <translation>%1 — kein bekannter Name</translation>
    </message>
    <message>
        <source>Options (default): %1</source>
        <translation>Optionen (Standard): %1</translation>
    </message>
    <message>
        <source>Stop when</source>
        <translation>Stoppen bei</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ExperimentList</name>
    <message>
        <source>Experiment</source>
        <translation>Experiment</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Trials</source>
        <translation>Trials</translation>
    </message>
    <message>
        <source>Best</source>
        <translation>Bestwert</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>abgeschlossen</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>unterbrochen</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>Resumable: Experiment &gt; Resume continues its trials from their latest checkpoints.</source>
        <translation>Fortsetzbar: Experiment &gt; Fortsetzen setzt seine Trials an ihren letzten Checkpoints fort.</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>pausiert</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ExperimentsCompare</name>
    <message>
        <source>%1 (experiment %2)</source>
        <translation>%1 (Experiment %2)</translation>
    </message>
    <message>
        <source>trial</source>
        <translation>Trial</translation>
    </message>
    <message>
        <source>metric</source>
        <translation>Metrik</translation>
    </message>
    <message>
        <source>iterations</source>
        <translation>Iterationen</translation>
    </message>
    <message>
        <source>Compare experiments</source>
        <translation>Experimente vergleichen</translation>
    </message>
    <message>
        <source>Experiment folder</source>
        <translation>Experiment-Ordner</translation>
    </message>
    <message>
        <source>Browse...</source>
        <translation>Durchsuchen...</translation>
    </message>
    <message>
        <source>First:</source>
        <translation>Erstes:</translation>
    </message>
    <message>
        <source>Second:</source>
        <translation>Zweites:</translation>
    </message>
    <message>
        <source>The best trials&apos; curves</source>
        <translation>Kurven der besten Trials</translation>
    </message>
    <message>
        <source>Choose two experiment folders.</source>
        <translation>Wählen Sie zwei Experiment-Ordner.</translation>
    </message>
    <message>
        <source>Reading...</source>
        <translation>Wird gelesen...</translation>
    </message>
    <message>
        <source>iteration</source>
        <translation>Iteration</translation>
    </message>
    <message>
        <source>value, %1</source>
        <translation>Wert, %1</translation>
    </message>
    <message>
        <source>Pareto front of one trial</source>
        <translation>Pareto-Front aus einem Trial</translation>
    </message>
    <message>
        <source>Pareto front of %1 trials</source>
        <translation>Pareto-Front aus %1 Trials</translation>
    </message>
    <message>
        <source> and %1 more</source>
        <translation> und %1 weitere</translation>
    </message>
    <message>
        <source>%1 to %2</source>
        <translation>%1 bis %2</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1, %2</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ImportanceView</name>
    <message>
        <source>Importance</source>
        <translation>Wichtigkeit</translation>
    </message>
    <message>
        <source>importance (share of impurity decrease)</source>
        <translation>Wichtigkeit (Anteil an der Abnahme der Unreinheit)</translation>
    </message>
    <message>
        <source>Parameter importance needs at least %1 finished trials with the metric.</source>
        <translation>Die Parameter-Wichtigkeit braucht mindestens %1 abgeschlossene Trials mit der Metrik.</translation>
    </message>
    <message>
        <source>Parameter importance needs at least %1 finished trials with “%2”; %3 so far.</source>
        <translation>Die Parameter-Wichtigkeit braucht mindestens %1 abgeschlossene Trials mit „%2“; bisher %3.</translation>
    </message>
    <message>
        <source>No hyperparameter varies between the finished trials.</source>
        <translation>Kein Hyperparameter unterscheidet sich zwischen den abgeschlossenen Trials.</translation>
    </message>
    <message>
        <source>Computing parameter importance…</source>
        <translation>Parameter-Wichtigkeit wird berechnet…</translation>
    </message>
    <message>
        <source>Updating…</source>
        <translation>Wird aktualisiert…</translation>
    </message>
    <message>
        <source>Hyperparameter importance for “%1”</source>
        <translation>Hyperparameter-Wichtigkeit für „%1“</translation>
    </message>
    <message>
        <source>Every finished trial has the same “%1”, %2: no parameter makes a difference to explain.</source>
        <translation>Jeder beendete Trial hat dasselbe „%1“, %2: Kein Parameter macht einen Unterschied, der zu erklären wäre.</translation>
    </message>
    <message>
        <source>Hyperparameter importance for the Pareto front</source>
        <translation>Wichtigkeit der Hyperparameter für die Pareto-Front</translation>
    </message>
    <message>
        <source>Mean decrease in impurity of a random forest (%1 trees) fitted to whether each of %2 finished trials is on the Pareto front of %3, by %4.</source>
        <translation>Mittlere Abnahme der Unreinheit eines Random Forest (%1 Bäume), angepasst daran, ob jeder von %2 beendeten Trials auf der Pareto-Front von %3 liegt; Maßstab: %4.</translation>
    </message>
    <message>
        <source>Mean decrease in impurity of a random forest (%1 trees) fitted to “%2”, %3, of %4 finished trials.</source>
        <translation>Mittlere Abnahme der Unreinheit eines Random Forest (%1 Bäume), angepasst an „%2“, %3, von %4 beendeten Trials.</translation>
    </message>
    <message>
        <source>Every finished trial is on the Pareto front of %1: no parameter makes a difference to explain.</source>
        <translation>Jeder beendete Trial liegt auf der Pareto-Front von %1: Kein Parameter macht einen Unterschied, der zu erklären wäre.</translation>
    </message>
    <message>
        <source>No finished trial is on the Pareto front of %1: no parameter makes a difference to explain.</source>
        <translation>Kein beendeter Trial liegt auf der Pareto-Front von %1: Kein Parameter macht einen Unterschied, der zu erklären wäre.</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::LimitsDialog</name>
    <message>
        <source>Change limits of %1</source>
        <translation>Limits von %1 ändern</translation>
    </message>
    <message>
        <source>No limit</source>
        <translation>Kein Limit</translation>
    </message>
    <message>
        <source>More samples make the search propose more trials; fewer than the trials already made are refused. A lower limit stops no running trial: new ones wait until fewer run. Resume keeps the change.</source>
        <translation>Mehr Samples lassen den Suchalgorithmus weitere Trials vorschlagen; weniger als die bereits erzeugten Trials werden abgelehnt. Ein niedrigeres Limit stoppt keinen laufenden Trial: neue warten, bis weniger laufen. Fortsetzen behält die Änderung bei.</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Übernehmen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Samples (num_samples)</source>
        <translation>Samples (num_samples)</translation>
    </message>
    <message>
        <source>Trials at once (max_concurrent_trials)</source>
        <translation>Gleichzeitige Trials (max_concurrent_trials)</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::LineageView</name>
    <message>
        <source>No PBT exploits in this experiment.</source>
        <translation>Keine PBT-Exploits in diesem Experiment.</translation>
    </message>
    <message>
        <source>Trial</source>
        <translation>Trial</translation>
    </message>
    <message>
        <source>Iteration</source>
        <translation>Iteration</translation>
    </message>
    <message>
        <source>Copied from</source>
        <translation>Kopiert von</translation>
    </message>
    <message>
        <source>Hyperparameters changed</source>
        <translation>Geänderte Hyperparameter</translation>
    </message>
    <message>
        <source>exploits in its lineage: %1</source>
        <translation>Exploits in der Abstammung: %1</translation>
    </message>
    <message>
        <source>Best %1</source>
        <translation>%1 (Bestwert)</translation>
    </message>
    <message>
        <source>%1 at iteration %2</source>
        <translation>%1 bei Iteration %2</translation>
    </message>
    <message>
        <source>(same hyperparameters)</source>
        <translation>(gleiche Hyperparameter)</translation>
    </message>
    <message>
        <source>Reason: %1</source>
        <translation>Grund: %1</translation>
    </message>
    <message>
        <source>started from scratch</source>
        <translation>von Grund auf gestartet</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::MainWindow</name>
    <message>
        <source>The server has no folder %1: the relative paths of %2 start from its results folder %3</source>
        <translation>Der Server hat keinen Ordner %1: die relativen Pfade von %2 gehen von seinem Ergebnisordner %3 aus</translation>
    </message>
    <message>
        <source>Change &amp;limits...</source>
        <translation>&amp;Limits ändern...</translation>
    </message>
    <message>
        <source>Change limits</source>
        <translation>Limits ändern</translation>
    </message>
    <message>
        <source>Only a running experiment of the attached engine takes new limits. Open one, or resume this one first.</source>
        <translation>Nur ein laufendes Experiment der verbundenen Engine nimmt neue Limits an. Öffnen Sie eines, oder setzen Sie dieses zuerst fort.</translation>
    </message>
    <message>
        <source>Engine &amp;queue...</source>
        <translation>&amp;Warteschlange der Engine...</translation>
    </message>
    <message>
        <source>%1 (read-only) - Tunedeck</source>
        <translation>%1 (schreibgeschützt) - Tunedeck</translation>
    </message>
    <message>
        <source>Tunedeck</source>
        <translation>Tunedeck</translation>
    </message>
    <message>
        <source>Select the trials in the table first.</source>
        <translation>Wählen Sie zuerst die Trials in der Tabelle aus.</translation>
    </message>
    <message>
        <source>%1 - Tunedeck</source>
        <translation>%1 - Tunedeck</translation>
    </message>
    <message>
        <source>Experiment</source>
        <translation>Experiment</translation>
    </message>
    <message>
        <source>Experiments</source>
        <translation>Experimente</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Run experiment file...</source>
        <translation>Experiment-Datei &amp;starten...</translation>
    </message>
    <message>
        <source>Ctrl+R</source>
        <translation>Ctrl+R</translation>
    </message>
    <message>
        <source>Run experiment</source>
        <translation>Experiment starten</translation>
    </message>
    <message>
        <source>Experiment files (*.yaml *.yml)</source>
        <translation>Experiment-Dateien (*.yaml *.yml)</translation>
    </message>
    <message>
        <source>&amp;New experiment from template...</source>
        <translation>&amp;Neues Experiment aus Vorlage...</translation>
    </message>
    <message>
        <source>&amp;Edit experiment file...</source>
        <translation>Experiment-Datei be&amp;arbeiten...</translation>
    </message>
    <message>
        <source>Ctrl+Shift+E</source>
        <translation>Ctrl+Shift+E</translation>
    </message>
    <message>
        <source>&amp;Open experiment folder...</source>
        <translation>Experiment-&amp;Ordner öffnen...</translation>
    </message>
    <message>
        <source>Compare &amp;two experiments...</source>
        <translation>&amp;Zwei Experimente vergleichen...</translation>
    </message>
    <message>
        <source>Ctrl+Shift+K</source>
        <translation>Ctrl+Shift+K</translation>
    </message>
    <message>
        <source>Export &amp;best config...</source>
        <translation>Beste Konfiguration e&amp;xportieren...</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <source>&amp;Copy best config as YAML</source>
        <translation>Beste Konfiguration als YAML &amp;kopieren</translation>
    </message>
    <message>
        <source>Ctrl+Shift+C</source>
        <translation>Ctrl+Shift+C</translation>
    </message>
    <message>
        <source>Copy best config as command-line &amp;flags</source>
        <translation>Beste Konfiguration als Kommandozeilen-&amp;Flags kopieren</translation>
    </message>
    <message>
        <source>Export all results as CSV...</source>
        <translation>Alle Ergebnisse als CSV exportieren...</translation>
    </message>
    <message>
        <source>Export chart as PNG or SVG...</source>
        <translation>Diagramm als PNG oder SVG exportieren...</translation>
    </message>
    <message>
        <source>Ctrl+Shift+S</source>
        <translation>Ctrl+Shift+S</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Experiment</source>
        <translation>&amp;Experiment</translation>
    </message>
    <message>
        <source>Refresh list</source>
        <translation>Liste aktualisieren</translation>
    </message>
    <message>
        <source>&amp;Pause (resume later)</source>
        <translation>&amp;Pausieren (später fortsetzen)</translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation>&amp;Fortsetzen</translation>
    </message>
    <message>
        <source>&amp;Stop for good</source>
        <translation>Endgültig &amp;beenden</translation>
    </message>
    <message>
        <source>&amp;Trial</source>
        <translation>&amp;Trial</translation>
    </message>
    <message>
        <source>&amp;Stop selected trials</source>
        <translation>Ausgewählte Trials &amp;stoppen</translation>
    </message>
    <message>
        <source>Ctrl+T</source>
        <translation>Ctrl+T</translation>
    </message>
    <message>
        <source>&amp;Pause selected trials</source>
        <translation>Ausgewählte Trials &amp;pausieren</translation>
    </message>
    <message>
        <source>Ctrl+P</source>
        <translation>Ctrl+P</translation>
    </message>
    <message>
        <source>&amp;Resume selected trials</source>
        <translation>Ausgewählte Trials &amp;fortsetzen</translation>
    </message>
    <message>
        <source>Ctrl+Shift+P</source>
        <translation>Ctrl+Shift+P</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Start page</source>
        <translation>&amp;Startseite</translation>
    </message>
    <message>
        <source>Ctrl+Shift+H</source>
        <translation>Ctrl+Shift+H</translation>
    </message>
    <message>
        <source>&amp;Monitor</source>
        <translation>&amp;Monitor</translation>
    </message>
    <message>
        <source>Ctrl+Shift+M</source>
        <translation>Ctrl+Shift+M</translation>
    </message>
    <message>
        <source>Reset chart zoom</source>
        <translation>Diagramm-Zoom zurücksetzen</translation>
    </message>
    <message>
        <source>Ctrl+0</source>
        <translation>Ctrl+0</translation>
    </message>
    <message>
        <source>Find trials</source>
        <translation>Trials suchen</translation>
    </message>
    <message>
        <source>Trial</source>
        <translation>Trial</translation>
    </message>
    <message>
        <source>Stop experiment</source>
        <translation>Experiment beenden</translation>
    </message>
    <message>
        <source>Best config copied</source>
        <translation>Beste Konfiguration kopiert</translation>
    </message>
    <message>
        <source>Export best config</source>
        <translation>Beste Konfiguration exportieren</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 gespeichert</translation>
    </message>
    <message>
        <source>Export results</source>
        <translation>Ergebnisse exportieren</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>Diagramm exportieren</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg)</source>
        <translation>PNG-Bild (*.png);;SVG-Zeichnung (*.svg)</translation>
    </message>
    <message>
        <source>Edit experiment</source>
        <translation>Experiment bearbeiten</translation>
    </message>
    <message>
        <source>Open experiment</source>
        <translation>Experiment öffnen</translation>
    </message>
    <message>
        <source>Language changed</source>
        <translation>Sprache geändert</translation>
    </message>
    <message>
        <source>Restart Tunedeck now to show every window in the new language?</source>
        <translation>Tunedeck jetzt neu starten, um alle Fenster in der neuen Sprache anzuzeigen?</translation>
    </message>
    <message>
        <source>&amp;Attach to a server over SSH...</source>
        <translation>Über SSH mit einem Server &amp;verbinden...</translation>
    </message>
    <message>
        <source>Ctrl+Shift+A</source>
        <translation>Ctrl+Shift+A</translation>
    </message>
    <message>
        <source>Edit c&amp;luster file...</source>
        <translation>C&amp;luster-Datei bearbeiten...</translation>
    </message>
    <message>
        <source>Ctrl+Shift+L</source>
        <translation>Ctrl+Shift+L</translation>
    </message>
    <message>
        <source>Cluster file</source>
        <translation>Cluster-Datei</translation>
    </message>
    <message>
        <source>Cluster files (*.yaml *.yml)</source>
        <translation>Cluster-Dateien (*.yaml *.yml)</translation>
    </message>
    <message>
        <source>&amp;Settings...</source>
        <translation>&amp;Einstellungen...</translation>
    </message>
    <message>
        <source>YAML (*.yaml)</source>
        <translation>YAML (*.yaml)</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Command-line flags (*.txt)</source>
        <translation>Kommandozeilen-Flags (*.txt)</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>Experiments are running</source>
        <translation>Experimente laufen</translation>
    </message>
    <message>
        <source>Pause and quit</source>
        <translation>Pausieren und beenden</translation>
    </message>
    <message>
        <source>Leave running and quit</source>
        <translation>Weiterlaufen lassen und beenden</translation>
    </message>
    <message>
        <source>Pausing %1...</source>
        <translation>%1 wird pausiert...</translation>
    </message>
    <message>
        <source>The engine did not answer the pause orders; the experiments may still run.</source>
        <translation>Die Engine hat auf die Pausenaufträge nicht geantwortet; die Experimente laufen womöglich noch.</translation>
    </message>
    <message>
        <source>Not paused, still running:
%1</source>
        <translation>Nicht pausiert, laufen noch:
%1</translation>
    </message>
    <message>
        <source>Running on the engine of this machine: %1.</source>
        <translation>Auf der Engine dieses Rechners laufen: %1.</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Pause and quit&lt;/b&gt;: each trial saves a checkpoint and stops; Experiment &amp;gt; Resume (or &lt;tt&gt;tunedeck-engine resume&lt;/tt&gt;) continues them later.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Leave running&lt;/b&gt;: the engine goes on without the window; open Tunedeck again to watch them.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Pausieren und beenden&lt;/b&gt;: Jeder Trial speichert einen Checkpoint und hält an; Experiment &amp;gt; Fortsetzen (oder &lt;tt&gt;tunedeck-engine resume&lt;/tt&gt;) setzt sie später fort.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Weiterlaufen lassen&lt;/b&gt;: Die Engine arbeitet ohne das Fenster weiter; öffnen Sie Tunedeck erneut, um sie zu verfolgen.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>&amp;Clone into editor...</source>
        <translation>In den Editor &amp;klonen...</translation>
    </message>
    <message>
        <source>&amp;Delete experiment folder...</source>
        <translation>Experimentordner &amp;löschen...</translation>
    </message>
    <message>
        <source>Clone experiment</source>
        <translation>Experiment klonen</translation>
    </message>
    <message>
        <source>Open an experiment first.</source>
        <translation>Öffnen Sie zuerst ein Experiment.</translation>
    </message>
    <message>
        <source>The experiment file of %1 cannot be read here: %2</source>
        <translation>Die Experimentdatei von %1 kann hier nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Cloned %1 into %2: edit it, then Run.</source>
        <translation>%1 nach %2 geklont: bearbeiten, dann Ausführen.</translation>
    </message>
    <message>
        <source>Delete experiment</source>
        <translation>Experiment löschen</translation>
    </message>
    <message>
        <source>%1 is still running. Stop it first (Experiment &gt; Stop for good), then delete its folder.</source>
        <translation>%1 läuft noch. Beenden Sie es zuerst (Experiment &gt; Endgültig beenden) und löschen Sie dann seinen Ordner.</translation>
    </message>
    <message>
        <source>%1 has ended, and the engine is still closing its files. Try again in a moment.</source>
        <translation>%1 ist beendet, die Engine schließt aber noch ihre Dateien. Versuchen Sie es gleich noch einmal.</translation>
    </message>
    <message>
        <source>Delete the folder of %1 with its %2 trials&apos; results, checkpoints and logs?

%3

This cannot be undone.</source>
        <translation>Den Ordner von %1 mit den Ergebnissen, Checkpoints und Logs seiner %2 Trials löschen?

%3

Das kann nicht rückgängig gemacht werden.</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Some files of %1 could not be deleted.</source>
        <translation>Einige Dateien von %1 konnten nicht gelöscht werden.</translation>
    </message>
    <message>
        <source>Deleted %1</source>
        <translation>%1 gelöscht</translation>
    </message>
    <message>
        <source>Edit &amp;note...</source>
        <translation>&amp;Notiz bearbeiten...</translation>
    </message>
    <message>
        <source>Ctrl+Shift+N</source>
        <translation>Ctrl+Shift+N</translation>
    </message>
    <message>
        <source>Edit note</source>
        <translation>Notiz bearbeiten</translation>
    </message>
    <message>
        <source>This experiment is open read-only: notes are kept by the engine that has its folder. Open it from the engine&apos;s list to add one.</source>
        <translation>Dieses Experiment ist schreibgeschützt geöffnet: Notizen verwahrt die Engine, der sein Ordner gehört. Öffnen Sie es aus der Liste der Engine, um eine hinzuzufügen.</translation>
    </message>
    <message>
        <source>Select one trial in the table to write its note.</source>
        <translation>Wählen Sie einen Trial in der Tabelle, um seine Notiz zu schreiben.</translation>
    </message>
    <message>
        <source>Note on %1</source>
        <translation>Notiz zu %1</translation>
    </message>
    <message>
        <source>What you want to remember about %1 (empty removes the note):</source>
        <translation>Was Sie sich zu %1 merken wollen (leer entfernt die Notiz):</translation>
    </message>
    <message>
        <source>Note not kept</source>
        <translation>Notiz nicht gespeichert</translation>
    </message>
    <message>
        <source>Stop trial</source>
        <translation>Trial stoppen</translation>
    </message>
    <message>
        <source>Stop trial %1 for good?</source>
        <translation>Trial %1 endgültig stoppen?</translation>
    </message>
    <message>
        <source>Stop these %1 trials for good: %2?</source>
        <translation>Diese %1 Trials endgültig stoppen: %2?</translation>
    </message>
    <message>
        <source>A running trial ends at its next report and a waiting one never starts; they read &quot;stopped by the user&quot; and are not resumed. Their results and checkpoints are kept. Trial &gt; Pause stops one so that it can be resumed.</source>
        <translation>Ein laufender Trial endet bei seinem nächsten Bericht, ein wartender startet nie; sie heißen dann „vom Benutzer gestoppt“ und werden nicht fortgesetzt. Ihre Ergebnisse und Checkpoints bleiben erhalten. Trial &gt; Pausieren hält einen so an, dass er fortgesetzt werden kann.</translation>
    </message>
    <message>
        <source>Stop %1 for good? Running trials stop at their next report; waiting ones never start. Every trial not yet ended reads &quot;stopped by the user&quot;, and the experiment cannot be resumed. Experiment &gt; Pause stops it so that it can be.</source>
        <translation>%1 endgültig stoppen? Laufende Trials stoppen bei ihrem nächsten Bericht, wartende starten nie. Jeder noch nicht beendete Trial heißt dann „vom Benutzer gestoppt“, und das Experiment kann nicht fortgesetzt werden. Experiment &gt; Pausieren hält es so an, dass es fortgesetzt werden kann.</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::MessageHistory</name>
    <message>
        <source>Messages...</source>
        <translation>Meldungen...</translation>
    </message>
    <message>
        <source>Ctrl+L</source>
        <translation>Ctrl+L</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>Meldungen</translation>
    </message>
    <message>
        <source>No message yet.</source>
        <translation>Noch keine Meldung.</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::MetricChart</name>
    <message>
        <source>No trial reported %1</source>
        <translation>Kein Trial hat %1 gemeldet</translation>
    </message>
    <message>
        <source>Waiting for the first result of %1</source>
        <translation>Warten auf das erste Ergebnis von %1</translation>
    </message>
    <message>
        <source>iteration</source>
        <translation>Iteration</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>Sekunden</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>%1 kann nicht geschrieben werden</translation>
    </message>
    <message>
        <source>Select rows in the table to name their curves here; up to %1 get a colour each.</source>
        <translation>Wählen Sie Zeilen in der Tabelle aus, um ihre Kurven hier zu benennen; bis zu %1 erhalten je eine eigene Farbe.</translation>
    </message>
    <message>
        <source>%1 (best)</source>
        <translation>%1 (bester)</translation>
    </message>
    <message numerus="yes">
        <source>%n other trial(s)</source>
        <translation>
            <numerusform>%n weiterer Trial</numerusform>
            <numerusform>%n weitere Trials</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>und %n weiterer</numerusform>
            <numerusform>und %n weitere</numerusform>
        </translation>
    </message>
    <message>
        <source>iteration %1</source>
        <translation>Iteration %1</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 = %2 (smoothed %3)</source>
        <translation>%1 = %2 (geglättet %3)</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::NodeUsageView</name>
    <message>
        <source>No node samples yet. The engine records them every gpu_sample_s seconds while an experiment runs.</source>
        <translation>Noch keine Messwerte der Knoten. Die Engine erfasst sie alle gpu_sample_s Sekunden, solange ein Experiment läuft.</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>Knoten</translation>
    </message>
    <message>
        <source>Card</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <source>Utilisation</source>
        <translation>Auslastung</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>Temperatur</translation>
    </message>
    <message>
        <source>Power</source>
        <translation>Leistung</translation>
    </message>
    <message>
        <source>Trials on it</source>
        <translation>Trials darauf</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>lost</source>
        <translation>verloren</translation>
    </message>
    <message>
        <source>time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>%1 CPU</source>
        <translation>%1 CPU</translation>
    </message>
    <message>
        <source>%1 GPU %2</source>
        <translation>%1 GPU %2</translation>
    </message>
    <message>
        <source>Utilisation (%)</source>
        <translation>Auslastung (%)</translation>
    </message>
    <message>
        <source>Memory used (%)</source>
        <translation>Speicherbelegung (%)</translation>
    </message>
    <message>
        <source> (MPS)</source>
        <translation> (MPS)</translation>
    </message>
    <message>
        <source> (time slicing: MPS did not start)</source>
        <translation> (Time-Slicing: MPS ist nicht gestartet)</translation>
    </message>
    <message>
        <source>%1
MPS did not start: %2</source>
        <translation>%1
MPS ist nicht gestartet: %2</translation>
    </message>
    <message>
        <source>launching</source>
        <translation>wird gestartet</translation>
    </message>
    <message>
        <source>ready</source>
        <translation>bereit</translation>
    </message>
    <message>
        <source>terminating</source>
        <translation>wird beendet</translation>
    </message>
    <message>
        <source>terminated</source>
        <translation>beendet</translation>
    </message>
    <message>
        <source>Set max workers</source>
        <translation>Max. Worker setzen</translation>
    </message>
    <message>
        <source>From now on the autoscaler keeps at most this many nodes of the type; nodes above a lowered cap go when idle. The cluster file stays as it is.</source>
        <translation>Von nun an hält der Autoscaler höchstens so viele Knoten dieses Typs; Knoten über einer gesenkten Grenze gehen, sobald sie untätig sind. Die Cluster-Datei bleibt, wie sie ist.</translation>
    </message>
    <message>
        <source>Max workers of</source>
        <translation>Max. Worker von</translation>
    </message>
    <message>
        <source>did not start</source>
        <translation>nicht gestartet</translation>
    </message>
    <message>
        <source>%1 (%2) ready %3 s after its launch</source>
        <translation>%1 (%2) bereit, %3 s nach dem Start</translation>
    </message>
    <message>
        <source>%1 lost: %2</source>
        <translation>%1 verloren: %2</translation>
    </message>
    <message>
        <source>cannot launch a %1: %2</source>
        <translation>%1 kann nicht gestartet werden: %2</translation>
    </message>
    <message>
        <source>%1 (%2) did not start: %3</source>
        <translation>%1 (%2) nicht gestartet: %3</translation>
    </message>
    <message>
        <source>The autoscaler&apos;s decisions, newest last</source>
        <translation>Entscheidungen des Autoscalers, neueste zuletzt</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::OptimizationHistoryView</name>
    <message>
        <source>On the Pareto front</source>
        <translation>Auf der Pareto-Front</translation>
    </message>
    <message>
        <source>by trial number</source>
        <translation>nach Trial-Nummer</translation>
    </message>
    <message>
        <source>by time</source>
        <translation>nach Zeit</translation>
    </message>
    <message>
        <source>Each trial&apos;s value and the best so far</source>
        <translation>Wert jedes Trials und das bisher Beste</translation>
    </message>
    <message>
        <source>No experiment shown.</source>
        <translation>Kein Experiment angezeigt.</translation>
    </message>
    <message>
        <source>No trial has reported “%1” yet.</source>
        <translation>Noch kein Trial hat „%1“ gemeldet.</translation>
    </message>
    <message>
        <source>seconds since the start</source>
        <translation>Sekunden seit dem Start</translation>
    </message>
    <message>
        <source>trial number</source>
        <translation>Trial-Nummer</translation>
    </message>
    <message numerus="yes">
        <source>%n trial(s) with a value; best so far %1 (%2)</source>
        <translation>
            <numerusform>%n Trial mit Wert; bisher bestes %1 (%2)</numerusform>
            <numerusform>%n Trials mit Wert; bisher bestes %1 (%2)</numerusform>
        </translation>
    </message>
    <message>
        <source>lowest</source>
        <translation>niedrigster</translation>
    </message>
    <message>
        <source>highest</source>
        <translation>höchster</translation>
    </message>
    <message>
        <source>Trial value</source>
        <translation>Wert des Trials</translation>
    </message>
    <message>
        <source>Best so far (min)</source>
        <translation>Bisher bester (min)</translation>
    </message>
    <message>
        <source>Best so far (max)</source>
        <translation>Bisher bester (max)</translation>
    </message>
    <message numerus="yes">
        <source>%n trial(s) with a value; the first of %1 objectives (their trade-off: the Pareto front tab)</source>
        <translation>
            <numerusform>%n Trial mit Wert; das erste von %1 Zielen (ihr Zielkonflikt: Reiter Pareto-Front)</numerusform>
            <numerusform>%n Trials mit Wert; das erste von %1 Zielen (ihr Zielkonflikt: Reiter Pareto-Front)</numerusform>
        </translation>
    </message>
    <message>
        <source>Each trial&apos;s value of the first objective, %1</source>
        <translation>Wert jedes Trials im ersten Ziel, %1</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ParallelCoordinatesView</name>
    <message>
        <source>none yet</source>
        <translation>noch keiner</translation>
    </message>
    <message>
        <source>%1 (log)</source>
        <translation>%1 (log)</translation>
    </message>
    <message>
        <source>best</source>
        <translation>beste</translation>
    </message>
    <message>
        <source>worst</source>
        <translation>schlechteste</translation>
    </message>
    <message>
        <source>metric</source>
        <translation>Metrik</translation>
    </message>
    <message>
        <source>%1, %2: %3</source>
        <translation>%1, %2: %3</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1, %2</translation>
    </message>
    <message>
        <source>Pareto front</source>
        <translation>Pareto-Front</translation>
    </message>
    <message>
        <source>dominated</source>
        <translation>dominiert</translation>
    </message>
    <message>
        <source>On the Pareto front</source>
        <translation>Auf der Pareto-Front</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ParetoFrontView</name>
    <message>
        <source>Objective on x</source>
        <translation>Ziel auf x</translation>
    </message>
    <message>
        <source>on y</source>
        <translation>auf y</translation>
    </message>
    <message>
        <source>No experiment shown.</source>
        <translation>Kein Experiment angezeigt.</translation>
    </message>
    <message>
        <source>The Pareto front needs several objectives (metric: [loss, latency_ms] with a mode each); this experiment has one, %1.</source>
        <translation>Die Pareto-Front braucht mehrere Ziele (metric: [loss, latency_ms] mit je einem mode); dieses Experiment hat eines, %1.</translation>
    </message>
    <message>
        <source>No trial has reported every objective (%1) yet.</source>
        <translation>Noch kein Trial hat alle Ziele (%1) gemeldet.</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1, %2</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n trial(s) on the Pareto front</source>
        <translation>
            <numerusform>%1 von %n Trial auf der Pareto-Front</numerusform>
            <numerusform>%1 von %n Trials auf der Pareto-Front</numerusform>
        </translation>
    </message>
    <message>
        <source>On the Pareto front</source>
        <translation>Auf der Pareto-Front</translation>
    </message>
    <message>
        <source>Dominated</source>
        <translation>Dominiert</translation>
    </message>
    <message>
        <source>%1, on the Pareto front</source>
        <translation>%1, auf der Pareto-Front</translation>
    </message>
    <message>
        <source>%1, dominated</source>
        <translation>%1, dominiert</translation>
    </message>
    <message>
        <source>%1, %2: %3</source>
        <translation>%1, %2: %3</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::Progress</name>
    <message>
        <source>%1 of %2 trials ended</source>
        <translation>%1 von %2 Trials beendet</translation>
    </message>
    <message>
        <source>%1 of %2 time budget, %3 trials ended</source>
        <translation>%1 von %2 Zeitbudget, %3 Trials beendet</translation>
    </message>
    <message>
        <source>%1 trials ended</source>
        <translation>%1 Trials beendet</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::QueueDialog</name>
    <message>
        <source>Engine queue</source>
        <translation>Warteschlange der Engine</translation>
    </message>
    <message>
        <source>Experiment</source>
        <translation>Experiment</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <source>Priority</source>
        <translation>Priorität</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>Laufend</translation>
    </message>
    <message>
        <source>Wanted</source>
        <translation>Gewünscht</translation>
    </message>
    <message>
        <source>Waits because</source>
        <translation>Wartet, weil</translation>
    </message>
    <message>
        <source>The engine did not answer with its queue: %1</source>
        <translation>Die Engine hat ihre Warteschlange nicht geliefert: %1</translation>
    </message>
    <message>
        <source>In use: %1 of %2 CPUs, %3 of %4 GPUs</source>
        <translation>Belegt: %1 von %2 CPUs, %3 von %4 GPUs</translation>
    </message>
    <message>
        <source>Experiments the engine runs on its machine share it by priority, then fairly among equal priorities. May run is how many trials an experiment may run at once now; nothing running is stopped to make room, so Running can be above it for a while.</source>
        <translation>Experimente, die die Engine auf ihrem Rechner ausführt, teilen ihn nach Priorität und bei gleicher Priorität gerecht. „Darf laufen“ ist, wie viele Trials ein Experiment jetzt gleichzeitig ausführen darf; nichts Laufendes wird angehalten, um Platz zu schaffen, daher kann „Laufend“ eine Weile darüber liegen.</translation>
    </message>
    <message>
        <source>May run</source>
        <translation>Darf laufen</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::RunStatusLine</name>
    <message>
        <source>Not attached to an engine</source>
        <translation>Mit keiner Engine verbunden</translation>
    </message>
    <message>
        <source>%1 running</source>
        <translation>%1 laufend</translation>
    </message>
    <message>
        <source>%1 pending</source>
        <translation>%1 wartend</translation>
    </message>
    <message>
        <source>%1 paused</source>
        <translation>%1 pausiert</translation>
    </message>
    <message>
        <source>%1 done</source>
        <translation>%1 fertig</translation>
    </message>
    <message>
        <source>%1 stopped early</source>
        <translation>%1 früh gestoppt</translation>
    </message>
    <message>
        <source>%1 stopped by the user</source>
        <translation>%1 vom Benutzer gestoppt</translation>
    </message>
    <message>
        <source>%1 errored</source>
        <translation>%1 Fehler</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ScatterView</name>
    <message>
        <source>Log x</source>
        <translation>x logarithmisch</translation>
    </message>
    <message>
        <source>&amp;Parameter:</source>
        <translation>&amp;Parameter:</translation>
    </message>
    <message>
        <source>Trials</source>
        <translation>Trials</translation>
    </message>
    <message>
        <source>Selected</source>
        <translation>Ausgewählt</translation>
    </message>
    <message>
        <source>Best</source>
        <translation>Bester Trial</translation>
    </message>
    <message>
        <source>No trial has reported “%1” yet.</source>
        <translation>Noch kein Trial hat „%1“ gemeldet.</translation>
    </message>
    <message>
        <source>Trials with “%1”: %2</source>
        <translation>Trials mit „%1“: %2</translation>
    </message>
    <message>
        <source>Best by %1 (%2)</source>
        <translation>Bester (%2), Maßstab: %1</translation>
    </message>
    <message>
        <source>Best by %1</source>
        <translation>Bester, Maßstab: %1</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1, %2</translation>
    </message>
    <message>
        <source>%1
%2 = %3
%4, %5 = %6</source>
        <translation>%1
%2 = %3
%4, %5 = %6</translation>
    </message>
    <message>
        <source>On the Pareto front by %1</source>
        <translation>Auf der Pareto-Front nach %1</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::SearchSpaceModel</name>
    <message>
        <source>a float in [low, high)</source>
        <translation>eine Gleitkommazahl in [low, high)</translation>
    </message>
    <message>
        <source>uniform, rounded to a multiple of q</source>
        <translation>uniform, gerundet auf ein Vielfaches von q</translation>
    </message>
    <message>
        <source>a float whose log is uniform; low &gt; 0</source>
        <translation>eine Gleitkommazahl mit gleichverteiltem Logarithmus; low &gt; 0</translation>
    </message>
    <message>
        <source>loguniform, rounded to a multiple of q; low &gt; 0</source>
        <translation>loguniform, gerundet auf ein Vielfaches von q; low &gt; 0</translation>
    </message>
    <message>
        <source>an integer in [low, high): high is excluded</source>
        <translation>eine ganze Zahl in [low, high): high ist ausgeschlossen</translation>
    </message>
    <message>
        <source>a multiple of q in [low, high]: high is included</source>
        <translation>ein Vielfaches von q in [low, high]: high ist eingeschlossen</translation>
    </message>
    <message>
        <source>an integer in [low, high) drawn on a log scale; low &gt; 0</source>
        <translation>eine ganze Zahl in [low, high), auf logarithmischer Skala gezogen; low &gt; 0</translation>
    </message>
    <message>
        <source>a float from a normal distribution; sd &gt; 0</source>
        <translation>eine normalverteilte Gleitkommazahl; sd &gt; 0</translation>
    </message>
    <message>
        <source>normal, rounded to a multiple of q</source>
        <translation>normal, gerundet auf ein Vielfaches von q</translation>
    </message>
    <message>
        <source>one of the values, uniformly</source>
        <translation>einer der Werte, gleichverteilt</translation>
    </message>
    <message>
        <source>every one of the values: all grid parameters&apos; combinations, repeated num_samples times</source>
        <translation>jeder der Werte: alle Kombinationen der Grid-Parameter, num_samples-mal wiederholt</translation>
    </message>
    <message>
        <source>the same value for every trial</source>
        <translation>derselbe Wert für jeden Trial</translation>
    </message>
    <message>
        <source>Its options hold parameters of their own: edit it in the YAML tab.</source>
        <translation>Seine Optionen enthalten eigene Parameter: Bearbeiten Sie ihn im Tab YAML.</translation>
    </message>
    <message>
        <source>%1 takes no such field</source>
        <translation>%1 hat kein solches Feld</translation>
    </message>
    <message>
        <source>Parameter</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>Domain</source>
        <translation>Wertebereich</translation>
    </message>
    <message>
        <source>Low</source>
        <translation>Untergrenze</translation>
    </message>
    <message>
        <source>High</source>
        <translation>Obergrenze</translation>
    </message>
    <message>
        <source>q</source>
        <translation>q</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>Mittelwert</translation>
    </message>
    <message>
        <source>SD</source>
        <translation>Std.-Abw.</translation>
    </message>
    <message>
        <source>Values</source>
        <translation>Werte</translation>
    </message>
    <message>
        <source>Log scale</source>
        <translation>Logarithmisch</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Bedingung</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::SearchSpaceTable</name>
    <message>
        <source>Add parameter</source>
        <translation>Parameter hinzufügen</translation>
    </message>
    <message>
        <source>Remove parameter</source>
        <translation>Parameter entfernen</translation>
    </message>
    <message>
        <source>The search space is read from %1: edit that file.</source>
        <translation>Der Suchraum wird aus %1 gelesen: Bearbeiten Sie diese Datei.</translation>
    </message>
    <message numerus="yes">
        <source>No grid parameters: %n config(s) drawn (num_samples).</source>
        <translation>
            <numerusform>Keine Grid-Parameter: %n Konfiguration wird gezogen (num_samples).</numerusform>
            <numerusform>Keine Grid-Parameter: %n Konfigurationen werden gezogen (num_samples).</numerusform>
        </translation>
    </message>
    <message>
        <source>Grid: %1 = %2 × %3 = %4</source>
        <translation>Grid: %1 = %2 × %3 = %4</translation>
    </message>
    <message numerus="yes">
        <source>%n combination(s)</source>
        <translation>
            <numerusform>%n Kombination</numerusform>
            <numerusform>%n Kombinationen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n sample(s)</source>
        <translation>
            <numerusform>%n Sample</numerusform>
            <numerusform>%n Samples</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n trial(s)</source>
        <translation>
            <numerusform>%n Trial</numerusform>
            <numerusform>%n Trials</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tunedeck::app::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>System language (%1)</source>
        <translation>Systemsprache (%1)</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>Wie das System</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Hell</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Dunkel</translation>
    </message>
    <message>
        <source>Start a local engine when none is running</source>
        <translation>Lokale Engine starten, wenn keine läuft</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>Sprache:</translation>
    </message>
    <message>
        <source>Colours:</source>
        <translation>Farben:</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::SliceView</name>
    <message>
        <source>&amp;Parameter:</source>
        <translation>&amp;Parameter:</translation>
    </message>
    <message>
        <source>All that vary</source>
        <translation>Alle, die variieren</translation>
    </message>
    <message>
        <source>No experiment shown.</source>
        <translation>Kein Experiment angezeigt.</translation>
    </message>
    <message>
        <source>No trial has reported “%1” yet.</source>
        <translation>Noch kein Trial hat „%1“ gemeldet.</translation>
    </message>
    <message>
        <source>No parameter varies between the trials.</source>
        <translation>Kein Parameter unterscheidet sich zwischen den Trials.</translation>
    </message>
    <message numerus="yes">
        <source>%n trial(s) with a value</source>
        <translation>
            <numerusform>%n Trial mit Wert</numerusform>
            <numerusform>%n Trials mit Wert</numerusform>
        </translation>
    </message>
    <message>
        <source>colour: trial number, first</source>
        <translation>Farbe: Trial-Nummer, erster</translation>
    </message>
    <message>
        <source>last</source>
        <translation>letzter</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::StartPage</name>
    <message>
        <source>%1 (cluster file)</source>
        <translation>%1 (Cluster-Datei)</translation>
    </message>
    <message>
        <source>&lt;h2&gt;Tunedeck&lt;/h2&gt;Start from a template, open a past experiment or attach to an engine on a server.</source>
        <translation>&lt;h2&gt;Tunedeck&lt;/h2&gt;Beginnen Sie mit einer Vorlage, öffnen Sie ein früheres Experiment oder verbinden Sie sich mit einer Engine auf einem Server.</translation>
    </message>
    <message>
        <source>Open experiment file...</source>
        <translation>Experiment-Datei öffnen...</translation>
    </message>
    <message>
        <source>Open experiment folder...</source>
        <translation>Experiment-Ordner öffnen...</translation>
    </message>
    <message>
        <source>Attach to a server over SSH...</source>
        <translation>Über SSH mit einem Server verbinden...</translation>
    </message>
    <message>
        <source>No examples found (set TUNEDECK_EXAMPLES_DIR).</source>
        <translation>Keine Beispiele gefunden (TUNEDECK_EXAMPLES_DIR setzen).</translation>
    </message>
    <message>
        <source>New experiment from template...</source>
        <translation>Neues Experiment aus Vorlage...</translation>
    </message>
    <message>
        <source>&lt;b&gt;Templates&lt;/b&gt;</source>
        <translation>&lt;b&gt;Vorlagen&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Recent experiments&lt;/b&gt;</source>
        <translation>&lt;b&gt;Letzte Experimente&lt;/b&gt;</translation>
    </message>
    <message>
        <source>%1  (results in %2)</source>
        <translation>%1  (Ergebnisse in %2)</translation>
    </message>
    <message>
        <source>%1  (file in %2)</source>
        <translation>%1  (Datei in %2)</translation>
    </message>
    <message>
        <source>Nothing yet: experiments you run, edit or open appear here.</source>
        <translation>Noch nichts: Experimente, die Sie starten, bearbeiten oder öffnen, erscheinen hier.</translation>
    </message>
    <message>
        <source>Where should the new experiment go?</source>
        <translation>Wo soll das neue Experiment abgelegt werden?</translation>
    </message>
    <message>
        <source>New experiment</source>
        <translation>Neues Experiment</translation>
    </message>
    <message>
        <source>cannot create %1</source>
        <translation>%1 kann nicht angelegt werden</translation>
    </message>
    <message>
        <source>cannot copy %1 to %2</source>
        <translation>%1 kann nicht nach %2 kopiert werden</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::StopCriteriaTable</name>
    <message>
        <source>Result key</source>
        <translation>Ergebnisschlüssel</translation>
    </message>
    <message>
        <source>Stop at</source>
        <translation>Stoppen ab</translation>
    </message>
    <message>
        <source>A trial stops once any criterion is met: training_iteration and time_total_s at that many; a metric at the threshold in the direction of its mode, or as written with {&quot;&gt;=&quot;: x} / {&quot;&lt;=&quot;: x}.</source>
        <translation>Ein Trial stoppt, sobald ein Kriterium erfüllt ist: training_iteration und time_total_s bei diesem Wert; eine Metrik beim Schwellenwert in Richtung ihres mode, oder wie angegeben mit {&quot;&gt;=&quot;: x} / {&quot;&lt;=&quot;: x}.</translation>
    </message>
    <message>
        <source>Add a stop criterion</source>
        <translation>Stoppkriterium hinzufügen</translation>
    </message>
    <message>
        <source>Remove the stop criterion</source>
        <translation>Stoppkriterium entfernen</translation>
    </message>
    <message>
        <source>Written over several lines: edit it in the YAML tab.</source>
        <translation>Steht über mehrere Zeilen: Bearbeiten Sie es im YAML-Tab.</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::StudyPlot</name>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1, %2</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::StudyPlots</name>
    <message>
        <source>History</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <source>Slice</source>
        <translation>Schnitt</translation>
    </message>
    <message>
        <source>Contour</source>
        <translation>Höhenlinien</translation>
    </message>
    <message>
        <source>Distribution</source>
        <translation>Verteilung</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>Zeitleiste</translation>
    </message>
    <message>
        <source>Optimisation history: each trial&apos;s value and the best so far</source>
        <translation>Optimierungsverlauf: Wert jedes Trials und das bisher Beste</translation>
    </message>
    <message>
        <source>Empirical distribution function of the trials&apos; values</source>
        <translation>Empirische Verteilungsfunktion der Werte der Trials</translation>
    </message>
    <message>
        <source>Pareto front</source>
        <translation>Pareto-Front</translation>
    </message>
    <message>
        <source>The trials no other trial beats on every objective, on two objectives</source>
        <translation>Die Trials, die kein anderer Trial in jedem Ziel schlägt, über zwei Zielen</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::TimelineView</name>
    <message>
        <source>Each run of each trial on its node and card</source>
        <translation>Jeder Lauf jedes Trials auf seinem Knoten und seiner Karte</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>completed</source>
        <translation>abgeschlossen</translation>
    </message>
    <message>
        <source>stopped early</source>
        <translation>vorzeitig gestoppt</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>pausiert</translation>
    </message>
    <message>
        <source>failed, restarted</source>
        <translation>fehlgeschlagen, neu gestartet</translation>
    </message>
    <message>
        <source>requeued</source>
        <translation>erneut eingereiht</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>(no node)</source>
        <translation>(kein Knoten)</translation>
    </message>
    <message>
        <source>%1 · GPU %2</source>
        <translation>%1 · GPU %2</translation>
    </message>
    <message>
        <source>seconds since the start</source>
        <translation>Sekunden seit dem Start</translation>
    </message>
    <message>
        <source>No experiment shown.</source>
        <translation>Kein Experiment angezeigt.</translation>
    </message>
    <message>
        <source>No trial has run yet.</source>
        <translation>Noch kein Trial ist gelaufen.</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) of trials</source>
        <translation>
            <numerusform>%n Lauf von Trials</numerusform>
            <numerusform>%n Läufe von Trials</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 s to %2 s: %3</source>
        <translation>%1 s bis %2 s: %3</translation>
    </message>
    <message>
        <source>stopped by the user</source>
        <translation>vom Benutzer gestoppt</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::TrialColumnChooser</name>
    <message>
        <source>Show all columns</source>
        <translation>Alle Spalten zeigen</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::TrialDetailView</name>
    <message>
        <source>%1 in all, %2 per rank</source>
        <translation>%1 insgesamt, %2 je Rang</translation>
    </message>
    <message>
        <source>%1 in all</source>
        <translation>%1 insgesamt</translation>
    </message>
    <message>
        <source>1 (GPU %1)</source>
        <translation>1 (GPU %1)</translation>
    </message>
    <message>
        <source>%1 (GPUs %2)</source>
        <translation>%1 (GPUs %2)</translation>
    </message>
    <message>
        <source>Copy config as YAML</source>
        <translation>Konfiguration als YAML kopieren</translation>
    </message>
    <message>
        <source>Copy config as JSON</source>
        <translation>Konfiguration als JSON kopieren</translation>
    </message>
    <message numerus="yes">
        <source>%n trials selected. Select one trial in the table to see its config, metrics, status history and checkpoints here; the Compare tab sets the selected trials side by side.</source>
        <translation>
            <numerusform>%n Trial ausgewählt. Wählen Sie einen Trial in der Tabelle, um hier seine Konfiguration, Metriken, Statusverlauf und Checkpoints zu sehen; der Tab Vergleich stellt die ausgewählten Trials nebeneinander.</numerusform>
            <numerusform>%n Trials ausgewählt. Wählen Sie einen Trial in der Tabelle, um hier seine Konfiguration, Metriken, Statusverlauf und Checkpoints zu sehen; der Tab Vergleich stellt die ausgewählten Trials nebeneinander.</numerusform>
        </translation>
    </message>
    <message>
        <source>No trial selected. Select a trial in the table to see its config, metrics, status history and checkpoints here.</source>
        <translation>Kein Trial ausgewählt. Wählen Sie einen Trial in der Tabelle, um hier seine Konfiguration, Metriken, Statusverlauf und Checkpoints zu sehen.</translation>
    </message>
    <message>
        <source>Error:</source>
        <translation>Fehler:</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>Knoten</translation>
    </message>
    <message>
        <source>not placed yet</source>
        <translation>noch nicht platziert</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPUs</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>Iteration</source>
        <translation>Iteration</translation>
    </message>
    <message>
        <source>Runtime</source>
        <translation>Laufzeit</translation>
    </message>
    <message>
        <source>Failures</source>
        <translation>Fehlschläge</translation>
    </message>
    <message>
        <source>Config</source>
        <translation>Konfiguration</translation>
    </message>
    <message>
        <source>No config yet.</source>
        <translation>Noch keine Konfiguration.</translation>
    </message>
    <message>
        <source>Parameter</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>Metriken</translation>
    </message>
    <message>
        <source>No results reported yet.</source>
        <translation>Noch keine Ergebnisse gemeldet.</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>Metrik</translation>
    </message>
    <message>
        <source>Last</source>
        <translation>Letzter Wert</translation>
    </message>
    <message>
        <source>Best (%1)</source>
        <translation>Bestwert (%1)</translation>
    </message>
    <message>
        <source>lowest</source>
        <translation>niedrigster</translation>
    </message>
    <message>
        <source>highest</source>
        <translation>höchster</translation>
    </message>
    <message>
        <source>Status history</source>
        <translation>Statusverlauf</translation>
    </message>
    <message>
        <source>No status changes recorded.</source>
        <translation>Keine Statuswechsel aufgezeichnet.</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Checkpoints</source>
        <translation>Checkpoints</translation>
    </message>
    <message>
        <source>No checkpoints saved.</source>
        <translation>Keine Checkpoints gespeichert.</translation>
    </message>
    <message>
        <source>Path on its node</source>
        <translation>Pfad auf seinem Knoten</translation>
    </message>
    <message>
        <source>rank %1 on %2</source>
        <translation>Rang %1 auf %2</translation>
    </message>
    <message>
        <source>rank %1 on %2 (GPU %3)</source>
        <translation>Rang %1 auf %2 (GPU %3)</translation>
    </message>
    <message>
        <source>rank %1 on %2 (GPUs %3)</source>
        <translation>Rang %1 auf %2 (GPUs %3)</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>Ränge</translation>
    </message>
    <message>
        <source>Note:</source>
        <translation>Notiz:</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::TrialHealthView</name>
    <message>
        <source>Each chosen trial&apos;s CPU use (100% is one busy core), resident memory (RAM) and GPU memory, as its node sampled them every gpu_sample_s seconds</source>
        <translation>CPU-Nutzung (100 % ist ein ausgelasteter Kern), residenter Speicher (RAM) und GPU-Speicher jedes gewählten Trials, wie sein Knoten sie alle gpu_sample_s Sekunden gemessen hat</translation>
    </message>
    <message>
        <source>%1: CPU up to %2% of a core, memory up to %3 MiB</source>
        <translation>%1: CPU bis %2 % eines Kerns, Speicher bis %3 MiB</translation>
    </message>
    <message>
        <source>%1: CPU not measured (one sample), memory up to %2 MiB</source>
        <translation>%1: CPU nicht gemessen (eine Messung), Speicher bis %2 MiB</translation>
    </message>
    <message>
        <source>; and %1 more (hover for all)</source>
        <translation>; und %1 weitere (Maus darüber für alle)</translation>
    </message>
    <message>
        <source>, GPU memory up to %1 MiB</source>
        <translation>, GPU-Speicher bis %1 MiB</translation>
    </message>
    <message>
        <source> (node %1, samples: %2)</source>
        <translation> (Knoten %1, Messungen: %2)</translation>
    </message>
    <message>
        <source>System health: no trial has been sampled (each node is sampled every gpu_sample_s seconds, so a shorter trial may have no sample; 0 turns sampling off).</source>
        <translation>Systemzustand: kein Trial gemessen (jeder Knoten alle gpu_sample_s Sekunden, ein kürzerer Trial also vielleicht nie; 0 schaltet die Messung ab).</translation>
    </message>
    <message>
        <source>System health: no samples of the chosen trials.</source>
        <translation>Systemzustand: keine Messungen der gewählten Trials.</translation>
    </message>
    <message>
        <source>System health: </source>
        <translation>Systemzustand: </translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>Sekunden</translation>
    </message>
    <message>
        <source>CPU %</source>
        <translation>CPU %</translation>
    </message>
    <message>
        <source>RAM MiB</source>
        <translation>RAM MiB</translation>
    </message>
    <message>
        <source>GPU MiB</source>
        <translation>GPU MiB</translation>
    </message>
    <message>
        <source> (%1 ranks added up, node %2, samples: %3)</source>
        <translation> (%1 Ränge addiert, Knoten %2, Messungen: %3)</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::TrialTableModel</name>
    <message>
        <source>PENDING</source>
        <translation>WARTEND</translation>
    </message>
    <message>
        <source>RUNNING</source>
        <translation>LÄUFT</translation>
    </message>
    <message>
        <source>PAUSED</source>
        <translation>PAUSIERT</translation>
    </message>
    <message>
        <source>TERMINATED</source>
        <translation>BEENDET</translation>
    </message>
    <message>
        <source>ERROR</source>
        <translation>FEHLER</translation>
    </message>
    <message>
        <source>metric</source>
        <translation>Metrik</translation>
    </message>
    <message>
        <source>Trial</source>
        <translation>Trial</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>Knoten</translation>
    </message>
    <message>
        <source>Iteration</source>
        <translation>Iteration</translation>
    </message>
    <message>
        <source>best %1</source>
        <translation>%1 (Bestwert)</translation>
    </message>
    <message>
        <source>Runtime</source>
        <translation>Laufzeit</translation>
    </message>
    <message>
        <source>Best trial by %1: %2 = %3</source>
        <translation>Bester Trial (Maßstab: %1): %2 = %3</translation>
    </message>
    <message>
        <source>stopped by %1 at %2</source>
        <translation>gestoppt von %1 bei %2</translation>
    </message>
    <message>
        <source>median stopping</source>
        <translation>Median-Stopp</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Notiz</translation>
    </message>
    <message>
        <source>stopped by the user</source>
        <translation>vom Benutzer gestoppt</translation>
    </message>
    <message>
        <source>On the Pareto front of %1 by %2: %3</source>
        <translation>Auf der Pareto-Front von %1 nach %2: %3</translation>
    </message>
    <message>
        <source>Pareto front</source>
        <translation>Pareto-Front</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::TrialTablePane</name>
    <message>
        <source>Search trials, configs, nodes...</source>
        <translation>Trials, Konfigurationen, Knoten durchsuchen...</translation>
    </message>
    <message>
        <source>All statuses</source>
        <translation>Alle Status</translation>
    </message>
    <message>
        <source>Stopped early</source>
        <translation>Früh gestoppt</translation>
    </message>
    <message>
        <source>Stopped by the user</source>
        <translation>Vom Benutzer gestoppt</translation>
    </message>
    <message>
        <source>The table shows the trials inside every range brushed on the parallel coordinates&apos; axes. Click to show all trials again.</source>
        <translation>Die Tabelle zeigt die Trials in jedem Bereich, der auf den Achsen der parallelen Koordinaten markiert ist. Klicken, um wieder alle Trials zu zeigen.</translation>
    </message>
    <message>
        <source>%1 (the engine&apos;s)</source>
        <translation>%1 (wie die Engine)</translation>
    </message>
    <message>
        <source>What the best trial is chosen by: the bold row, the star of Parameter vs metric, Compare two experiments, Export best config and Copy best config all follow it. The engine&apos;s own choice (tunedeck-engine best) is the last result. With several objectives it scores each of them, and the Pareto front follows it.</source>
        <translation>Wonach der beste Trial gewählt wird: die fette Zeile, der Stern in Parameter gegen Metrik, Zwei Experimente vergleichen, Beste Konfiguration exportieren und Beste Konfiguration kopieren folgen dieser Wahl. Die Engine selbst (tunedeck-engine best) nimmt das letzte Ergebnis. Bei mehreren Zielen bewertet sie jedes davon, und die Pareto-Front folgt ihr.</translation>
    </message>
    <message>
        <source>Best trial by</source>
        <translation>Maßstab für den besten Trial:</translation>
    </message>
    <message>
        <source>Read-only</source>
        <translation>Schreibgeschützt</translation>
    </message>
    <message>
        <source>Read from its folder: the attached engine does not run this experiment, so nothing new arrives and its trials cannot be stopped, paused or resumed from here.</source>
        <translation>Aus seinem Ordner gelesen: Die verbundene Engine führt dieses Experiment nicht aus, daher kommt nichts Neues hinzu, und seine Trials lassen sich von hier weder stoppen noch pausieren oder fortsetzen.</translation>
    </message>
    <message>
        <source>Folder on the server: %1</source>
        <translation>Ordner auf dem Server: %1</translation>
    </message>
    <message>
        <source>Folder: %1</source>
        <translation>Ordner: %1</translation>
    </message>
    <message>
        <source>Code: %1</source>
        <translation>Code: %1</translation>
    </message>
    <message>
        <source>%1
The code the run used; `tunedeck-engine rerun FOLDER` re-creates it and runs the same experiment again.</source>
        <translation>%1
Der Code, mit dem der Lauf gestartet wurde; `tunedeck-engine rerun FOLDER` stellt ihn wieder her und führt dasselbe Experiment erneut aus.</translation>
    </message>
    <message>
        <source>Brushed: %1 of %2 trials - Clear</source>
        <translation>Markiert: %1 von %2 – Aufheben</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::YamlDocumentEditor</name>
    <message>
        <source>Undo</source>
        <translation>Rückgängig</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>Wiederherstellen</translation>
    </message>
    <message>
        <source>Form</source>
        <translation>Formular</translation>
    </message>
    <message>
        <source>YAML</source>
        <translation>YAML</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message numerus="yes">
        <source>YAML (%n error(s))</source>
        <translation>
            <numerusform>YAML (%n Fehler)</numerusform>
            <numerusform>YAML (%n Fehler)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tunedeck::app::YamlTextEdit</name>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
</context>
<context>
    <name>tunedeck::client::EngineClient</name>
    <message>
        <source>the engine sent an event this app cannot read: %1</source>
        <translation>die Engine hat ein Ereignis gesendet, das diese App nicht lesen kann: %1</translation>
    </message>
    <message>
        <source>the engine closed the connection</source>
        <translation>die Engine hat die Verbindung geschlossen</translation>
    </message>
    <message>
        <source>the engine sent a line that is not a JSON object</source>
        <translation>die Engine hat eine Zeile gesendet, die kein JSON-Objekt ist</translation>
    </message>
    <message>
        <source>the engine sent an overlong line; it was skipped</source>
        <translation>die Engine hat eine überlange Zeile gesendet; sie wurde übersprungen</translation>
    </message>
    <message>
        <source>attaching elsewhere</source>
        <translation>Verbindung wird anderswo aufgebaut</translation>
    </message>
</context>
<context>
    <name>tunedeck::client::SshTunnel</name>
    <message>
        <source>cannot make a private folder for the tunnel&apos;s socket: %1</source>
        <translation>ein privater Ordner für den Socket des Tunnels kann nicht angelegt werden: %1</translation>
    </message>
    <message>
        <source>cannot listen on %1: %2</source>
        <translation>auf %1 kann nicht gelauscht werden: %2</translation>
    </message>
    <message>
        <source>Connecting to %1...</source>
        <translation>Verbindung zu %1 wird hergestellt...</translation>
    </message>
    <message>
        <source>%1 presented host key %2, not the key %3 you accepted: refusing it. It was recorded in %4 on connecting; remove it from there (ssh-keygen -R &apos;%5&apos; -f &apos;%4&apos;).</source>
        <translation>%1 hat den Host-Schlüssel %2 vorgelegt, nicht den von Ihnen akzeptierten Schlüssel %3: Er wird abgelehnt. Dieser wurde beim Verbinden in %4 gespeichert; entfernen Sie ihn dort (ssh-keygen -R &apos;%5&apos; -f &apos;%4&apos;).</translation>
    </message>
    <message>
        <source>Connected to %1; the engine is reached at %2 there</source>
        <translation>Verbunden mit %1; die Engine ist dort erreichbar über %2</translation>
    </message>
    <message>
        <source>&apos;%1&apos; exited with status %2</source>
        <translation>„%1“ wurde mit Status %2 beendet</translation>
    </message>
    <message>
        <source>cannot find the engine&apos;s socket on %1: asking for the SSH user&apos;s id and runtime folder failed: %2</source>
        <translation>der Socket der Engine auf %1 ist nicht zu finden: Die Abfrage von ID und Laufzeitordner des SSH-Benutzers ist fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>%1; trying again in %2 s</source>
        <translation>%1; neuer Versuch in %2 s</translation>
    </message>
    <message>
        <source>the engine at %1 on the server closed the connection before answering (is its socket another user&apos;s, or is it stopping?)</source>
        <translation>die Engine unter %1 auf dem Server hat die Verbindung vor einer Antwort geschlossen (gehört ihr Socket einem anderen Benutzer, oder wird sie gerade beendet?)</translation>
    </message>
    <message>
        <source>no engine answers at %1 on the server; is tunedeck-engine serve running there?</source>
        <translation>auf dem Server antwortet keine Engine unter %1; läuft dort tunedeck-engine serve?</translation>
    </message>
    <message>
        <source> or </source>
        <translation> oder </translation>
    </message>
    <message>
        <source> (Or sshd there does not allow forwarding to unix sockets: AllowStreamLocalForwarding no in its sshd_config.)</source>
        <translation> (Oder sshd erlaubt dort keine Weiterleitung an Unix-Sockets: AllowStreamLocalForwarding no in seiner sshd_config.)</translation>
    </message>
</context>
</TS>
