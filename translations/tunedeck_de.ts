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
        <source>Attach to an engine at tcp:HOST:PORT instead.</source>
        <translation>Stattdessen mit einer Engine unter tcp:HOST:PORT verbinden.</translation>
    </message>
    <message>
        <source>The token for --connect (its first line).</source>
        <translation>Die Datei mit dem Token für --connect (in ihrer ersten Zeile).</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ExperimentEditor</name>
    <message>
        <source>Search space</source>
        <translation>Suchraum</translation>
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
        <source>Undo</source>
        <translation>Rückgängig</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>Wiederherstellen</translation>
    </message>
    <message>
        <source>Untitled experiment</source>
        <translation>Unbenanntes Experiment</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>The experiment has no file yet: save it as one.</source>
        <translation>Das Experiment hat noch keine Datei: Speichern Sie es als Datei.</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
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
    <message>
        <source>Valid: %1 parameter(s), search %2, scheduler %3, %4 trial(s).</source>
        <translation>Gültig: %1 Parameter, Suchalgorithmus %2, Scheduler %3, %4 Trial(s).</translation>
    </message>
    <message>
        <source>unbounded</source>
        <translation>unbegrenzt viele</translation>
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
    <message numerus="yes">
        <source>YAML (%n error(s))</source>
        <translation>
            <numerusform>YAML (%n Fehler)</numerusform>
            <numerusform>YAML (%n Fehler)</numerusform>
        </translation>
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
</context>
<context>
    <name>tunedeck::app::ExperimentsCompare</name>
    <message>
        <source>trial</source>
        <translation>Trial</translation>
    </message>
    <message>
        <source>metric</source>
        <translation>Metrik</translation>
    </message>
    <message>
        <source>best value</source>
        <translation>Bestwert</translation>
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
        <source>Every finished trial has the same best “%1”: no parameter makes a difference to explain.</source>
        <translation>Alle abgeschlossenen Trials haben denselben Bestwert für „%1“: Es gibt keinen Unterschied, den ein Parameter erklären könnte.</translation>
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
        <source>Mean decrease in impurity of a random forest (%1 trees) fitted to the best “%2” of %3 finished trials.</source>
        <translation>Mittlere Abnahme der Unreinheit (Mean Decrease in Impurity) eines Random Forest (%1 Bäume), angepasst an den Bestwert von „%2“ aus %3 abgeschlossenen Trials.</translation>
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
        <source>Tunedeck</source>
        <translation>Tunedeck</translation>
    </message>
    <message>
        <source>Engine %1, results in %2</source>
        <translation>Engine %1, Ergebnisse in %2</translation>
    </message>
    <message>
        <source>Engine connection lost (%1); reconnecting...</source>
        <translation>Verbindung zur Engine verloren (%1); Verbindung wird wiederhergestellt...</translation>
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
        <source>Experiments</source>
        <translation>Experimente</translation>
    </message>
    <message>
        <source>Search trials, configs, nodes...</source>
        <translation>Trials, Konfigurationen, Knoten durchsuchen...</translation>
    </message>
    <message>
        <source>All statuses</source>
        <translation>Alle Status</translation>
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
        <source>Smoothing</source>
        <translation>Glättung</translation>
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
        <source>Importance</source>
        <translation>Wichtigkeit</translation>
    </message>
    <message>
        <source>PBT lineage</source>
        <translation>PBT-Abstammung</translation>
    </message>
    <message>
        <source>Nodes and GPUs</source>
        <translation>Knoten und GPUs</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>Protokoll</translation>
    </message>
    <message>
        <source>%v of %m trials done</source>
        <translation>%v von %m Trials fertig</translation>
    </message>
    <message>
        <source>Not attached to an engine</source>
        <translation>Mit keiner Engine verbunden</translation>
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
        <source>Se&amp;ttings...</source>
        <translation>&amp;Einstellungen...</translation>
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
        <source>%1 running, %2 pending, %3 paused, %4 terminated, %5 errors</source>
        <translation>%1 laufend, %2 wartend, %3 pausiert, %4 beendet, %5 Fehler</translation>
    </message>
    <message>
        <source>best %1</source>
        <translation>%1 (Bestwert)</translation>
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
        <source>%1 - Tunedeck editor</source>
        <translation>%1 - Tunedeck-Editor</translation>
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
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <source>Re&amp;do</source>
        <translation>&amp;Wiederherstellen</translation>
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
        <source>Stop %1 for good? Running trials stop at their next report; waiting ones never start.</source>
        <translation>%1 endgültig beenden? Laufende Trials stoppen bei ihrer nächsten Meldung; wartende werden nicht mehr gestartet.</translation>
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
        <source>YAML (*.yaml);;JSON (*.json);;Command-line flags (*.txt)</source>
        <translatorcomment>MainWindow::exportBest picks the format by the chosen filter&apos;s first word (&quot;JSON&quot;, &quot;Command&quot;): keep &quot;Command-line flags&quot; at the start of the third filter until the code compares the filter by position.</translatorcomment>
        <translation>YAML (*.yaml);;JSON (*.json);;Command-line flags / Kommandozeilen-Flags (*.txt)</translation>
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
        <source>cannot write %1</source>
        <translation>%1 kann nicht geschrieben werden</translation>
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
</context>
<context>
    <name>tunedeck::app::MetricChart</name>
    <message>
        <source>iteration</source>
        <translation>Iteration</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>Sekunden</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::NodeUsageView</name>
    <message>
        <source>Utilisation (%): CPU per node, each GPU</source>
        <translation>Auslastung (%): CPU je Knoten, jede GPU</translation>
    </message>
    <message>
        <source>Memory used (%): per node, each GPU</source>
        <translation>Speichernutzung (%): je Knoten, jede GPU</translation>
    </message>
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
</context>
<context>
    <name>tunedeck::app::ParallelCoordinatesView</name>
    <message>
        <source>none yet</source>
        <translation>noch keiner</translation>
    </message>
    <message>
        <source>best %1: %2</source>
        <translation>%1 (Bestwert): %2</translation>
    </message>
    <message>
        <source>%1 (log)</source>
        <translation>%1 (log)</translation>
    </message>
    <message>
        <source>best %1</source>
        <translation>%1 (Bestwert)</translation>
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
        <source>%1
%2 = %3
best %4 = %5</source>
        <translation>%1
%2 = %3
%4 (Bestwert) = %5</translation>
    </message>
    <message>
        <source>Best (%1)</source>
        <translation>Bester Trial (%1)</translation>
    </message>
    <message>
        <source>best %1</source>
        <translation>%1 (Bestwert)</translation>
    </message>
    <message>
        <source>No trial has reported “%1” yet.</source>
        <translation>Noch kein Trial hat „%1“ gemeldet.</translation>
    </message>
    <message>
        <source>Trials with “%1”: %2</source>
        <translation>Trials mit „%1“: %2</translation>
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
        <source>Grid: %1 = %2 combination(s) × %3 sample(s) = %4 trial(s)</source>
        <translation>Grid: %1 = %2 Kombination(en) × %3 Sample(s) = %4 Trial(s)</translation>
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
    <name>tunedeck::app::StartPage</name>
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
    <name>tunedeck::app::TrialTableModel</name>
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
</context>
<context>
    <name>tunedeck::client::EngineClient</name>
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
</context>
</TS>
