<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>kiln::gui::AboutDialog</name>
    <message>
        <location filename="../gui/app/about_dialog.cpp" line="13"/>
        <source>About Kiln Studio</source>
        <translation>Über Kiln Studio</translation>
    </message>
    <message>
        <location filename="../gui/app/about_dialog.cpp" line="42"/>
        <source>Licensed under the GNU General Public License, version 3 or later.</source>
        <translation>Lizenziert unter der GNU General Public License, Version 3 oder neuer.</translation>
    </message>
    <message>
        <source>A desktop workstation for pretraining, fine-tuning and embedding computer vision models, on CPUs and GPUs.</source>
        <translation>Eine Desktop-Arbeitsumgebung zum Vortrainieren, Feinabstimmen und Einbetten von Modellen für maschinelles Sehen, auf CPUs und GPUs.</translation>
    </message>
</context>
<context>
    <name>kiln::gui::AugmentationPreview</name>
    <message>
        <location filename="../gui/datasets/augmentation_preview.cpp" line="26"/>
        <source>Click for new random views</source>
        <translation>Klicken für neue zufällige Ansichten</translation>
    </message>
    <message>
        <location filename="../gui/datasets/augmentation_preview.cpp" line="89"/>
        <source>No readable image in this dataset to preview.</source>
        <translation>Kein lesbares Bild in diesem Datensatz für die Vorschau.</translation>
    </message>
    <message>
        <location filename="../gui/datasets/augmentation_preview.cpp" line="90"/>
        <source>%1 cannot be read.</source>
        <translation>%1 kann nicht gelesen werden.</translation>
    </message>
    <message>
        <location filename="../gui/datasets/augmentation_preview.cpp" line="109"/>
        <source>%1 x %2 px</source>
        <translation>%1 x %2 px</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/datasets/augmentation_preview.cpp" line="112"/>
        <source>%n view(s) of %1 as %2 makes them; click for new ones.</source>
        <translation>
            <numerusform>%n Ansicht von %1, wie %2 sie erzeugt; klicken für neue.</numerusform>
            <numerusform>%n Ansichten von %1, wie %2 sie erzeugt; klicken für neue.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kiln::gui::EmbeddingsView</name>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="41"/>
        <source>first principal component</source>
        <translation>erste Hauptkomponente</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="42"/>
        <source>second principal component</source>
        <translation>zweite Hauptkomponente</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="48"/>
        <source>Export embeddings (File menu) or open an embeddings file to see them here.</source>
        <translation>Exportieren Sie Einbettungen (Menü Datei) oder öffnen Sie eine Einbettungsdatei, um sie hier zu sehen.</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="54"/>
        <source>&lt;b&gt;Nearest neighbours&lt;/b&gt; (click a point)</source>
        <translation>&lt;b&gt;Nächste Nachbarn&lt;/b&gt; (Punkt anklicken)</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="73"/>
        <source>Loading and projecting %1...</source>
        <translation>%1 wird geladen und projiziert...</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="125"/>
        <source>(top folder)</source>
        <translation>(oberster Ordner)</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="132"/>
        <source>neighbours</source>
        <translation>Nachbarn</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/embeddings/embeddings_view.cpp" line="141"/>
        <source>%n embedding(s) in %1 group(s) by top-level folder.</source>
        <translation>
            <numerusform>%n Einbettung in %1 Gruppe(n) nach oberstem Ordner.</numerusform>
            <numerusform>%n Einbettungen in %1 Gruppe(n) nach oberstem Ordner.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/embeddings/embeddings_view.cpp" line="197"/>
        <source>%1 (selected)</source>
        <translation>%1 (ausgewählt)</translation>
    </message>
</context>
<context>
    <name>kiln::gui::ExportEmbeddingsDialog</name>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="40"/>
        <source>Export Embeddings</source>
        <translation>Einbettungen exportieren</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="48"/>
        <source>%1 (%2, %3)</source>
        <translation>%1 (%2, %3)</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="52"/>
        <source>Browse...</source>
        <translation>Durchsuchen...</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="54"/>
        <location filename="../gui/embeddings/export_dialog.cpp" line="85"/>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="55"/>
        <source>Kiln models (*.pt *.ckpt *.pth)</source>
        <translation>Kiln-Modelle (*.pt *.ckpt *.pth)</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="76"/>
        <source> px</source>
        <translation> px</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="86"/>
        <source>Dataset</source>
        <translation>Datensatz</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="87"/>
        <source>Format</source>
        <translation>Format</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="88"/>
        <source>Image size</source>
        <translation>Bildgröße</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="89"/>
        <source>Write to</source>
        <translation>Schreiben nach</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="91"/>
        <source>Export</source>
        <translation>Exportieren</translation>
    </message>
    <message>
        <location filename="../gui/embeddings/export_dialog.cpp" line="123"/>
        <source>embeddings</source>
        <translation>einbettungen</translation>
    </message>
</context>
<context>
    <name>kiln::gui::PerClassResults</name>
    <message>
        <source>true %1, predicted %2: %3 of %4</source>
        <translation>wahr %1, vorhergesagt %2: %3 von %4</translation>
    </message>
    <message>
        <source>Confusion matrix, validation at step %1 (rows: true class, columns: predicted)</source>
        <translation>Konfusionsmatrix, Validierung bei Schritt %1 (Zeilen: wahre Klasse, Spalten: vorhergesagt)</translation>
    </message>
    <message>
        <source>class</source>
        <translation>Klasse</translation>
    </message>
    <message>
        <source>Per class, validation at step %1</source>
        <translation>Je Klasse, Validierung bei Schritt %1</translation>
    </message>
</context>
<context>
    <name>kiln::gui::LivePlots</name>
    <message>
        <source>No GPU in this run: GPU utilisation and memory are not plotted.</source>
        <translation>Kein GPU in diesem Lauf: GPU-Auslastung und -Speicher werden nicht gezeichnet.</translation>
    </message>
    <message>
        <source>loss (smoothed)</source>
        <translation>Loss (geglättet)</translation>
    </message>
    <message>
        <source>Smoothing of the loss, as TensorBoard&apos;s</source>
        <translation>Glättung des Loss, wie in TensorBoard</translation>
    </message>
    <message>
        <source>Log scale</source>
        <translation>Log. Skala</translation>
    </message>
    <message>
        <source>Reset View</source>
        <translation>Ansicht zurücksetzen</translation>
    </message>
    <message>
        <source>Follow the run again after zooming or panning (or double-click a plot)</source>
        <translation>Nach Zoomen oder Verschieben wieder dem Lauf folgen (oder Doppelklick auf ein Diagramm)</translation>
    </message>
    <message>
        <source>Export...</source>
        <translation>Exportieren...</translation>
    </message>
    <message>
        <source>Export Plots</source>
        <translation>Diagramme exportieren</translation>
    </message>
    <message>
        <source>CSV of the values (*.csv);;PNG image (*.png)</source>
        <translation>CSV der Werte (*.csv);;PNG-Bild (*.png)</translation>
    </message>
    <message>
        <source>Smoothing</source>
        <translation>Glättung</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Cannot write %1 as a PNG image.</source>
        <translation>%1 kann nicht als PNG-Bild geschrieben werden.</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="37"/>
        <source>Loss</source>
        <translation>Verlust</translation>
    </message>
    <message>
        <source>Validation (step %1: metrics being computed)</source>
        <translation>Validierung (Schritt %1: Metriken werden berechnet)</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="37"/>
        <source>loss</source>
        <translation>Verlust</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="37"/>
        <source>learning rate</source>
        <translation>Lernrate</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="39"/>
        <source>data_wait (%)</source>
        <translation>data_wait (%)</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="39"/>
        <source>data_wait</source>
        <translation>data_wait</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="40"/>
        <source>CPU utilisation (%)</source>
        <translation>CPU-Auslastung (%)</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="41"/>
        <source>system</source>
        <translation>System</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="41"/>
        <source>this process</source>
        <translation>dieser Prozess</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="42"/>
        <source>GPU utilisation (%) and memory (MB)</source>
        <translation>GPU-Auslastung (%) und Speicher (MB)</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="43"/>
        <source>Images/s</source>
        <translation>Bilder/s</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="43"/>
        <source>images/s</source>
        <translation>Bilder/s</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="49"/>
        <source>best</source>
        <translation>bester</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="64"/>
        <source>Over time instead of steps</source>
        <translation>Über die Zeit statt über Schritte</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="90"/>
        <location filename="../gui/plots/live_plots.cpp" line="107"/>
        <source>step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="107"/>
        <source>seconds</source>
        <translation>Sekunden</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="174"/>
        <source>GPU %1 utilisation</source>
        <translation>GPU %1 Auslastung</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="178"/>
        <source>GPU %1 memory</source>
        <translation>GPU %1 Speicher</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="212"/>
        <source>step %1</source>
        <translation>Schritt %1</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="214"/>
        <source>%1: loss %2, learning rate %3</source>
        <translation>%1: Verlust %2, Lernrate %3</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="220"/>
        <source>%1: data_wait %2%</source>
        <translation>%1: data_wait %2%</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="223"/>
        <source>%1: CPU %2%</source>
        <translation>%1: CPU %2%</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="226"/>
        <source>%1: %2 images/s</source>
        <translation>%1: %2 Bilder/s</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="235"/>
        <source>GPU %1 %2, %3</source>
        <translation>GPU %1 %2, %3</translation>
    </message>
    <message>
        <location filename="../gui/plots/live_plots.cpp" line="237"/>
        <location filename="../gui/plots/live_plots.cpp" line="239"/>
        <source>n/a</source>
        <translation>k. A.</translation>
    </message>
    <message>
        <source>Validation</source>
        <translation>Validierung</translation>
    </message>
    <message>
        <source>metric</source>
        <translation>Metrik</translation>
    </message>
    <message>
        <source>val_loss</source>
        <translation>val_loss</translation>
    </message>
    <message>
        <source>evaluation after step %1: %2 %3, val_loss %4%5</source>
        <translation>Auswertung nach Schritt %1: %2 %3, val_loss %4%5</translation>
    </message>
    <message>
        <source> (best)</source>
        <translation> (bester Wert)</translation>
    </message>
</context>
<context>
    <name>kiln::gui::MainWindow</name>
    <message>
        <location filename="../gui/app/main_window.cpp"/>
        <source>&amp;User Guide</source>
        <translation>&amp;Benutzerhandbuch</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp"/>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp"/>
        <source>Embeddings files exported or opened in this project</source>
        <translation>In diesem Projekt exportierte oder geöffnete Embedding-Dateien</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp"/>
        <source>%1 is no longer there; export the embeddings again or open another file.</source>
        <translation>%1 ist nicht mehr vorhanden; exportieren Sie die Embeddings erneut oder öffnen Sie eine andere Datei.</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp"/>
        <source>Project embeddings:</source>
        <translation>Embeddings des Projekts:</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp"/>
        <source>none yet: File &gt; Export Embeddings</source>
        <translation>noch keine: Datei &gt; Embeddings exportieren</translation>
    </message>
    <message>
        <source>Class folders: %1 (images per class: %2%3)</source>
        <translation>Klassenordner: %1 (Bilder pro Klasse: %2%3)</translation>
    </message>
    <message>
        <source>, and %1 more</source>
        <translation>, und %1 weitere</translation>
    </message>
    <message>
        <source>Where the time went</source>
        <translation>Wohin die Zeit ging</translation>
    </message>
    <message>
        <source>Estimated run time: about %1 (%2 images x %3 epochs at %4 images/s, the speed of run %5)</source>
        <translation>Geschätzte Laufzeit: etwa %1 (%2 Bilder x %3 Epochen bei %4 Bildern/s, dem Tempo des Laufs %5)</translation>
    </message>
    <message>
        <source>Estimated run time: known once a run of %1 at %2 px has trained in this project</source>
        <translation>Geschätzte Laufzeit: bekannt, sobald in diesem Projekt ein Lauf von %1 mit %2 px trainiert hat</translation>
    </message>
    <message numerus="yes">
        <source>Predicted %n image(s) (%1) into %2.</source>
        <translation>
            <numerusform>%n Bild vorhergesagt (%1), nach %2.</numerusform>
            <numerusform>%n Bilder vorhergesagt (%1), nach %2.</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Predict...</source>
        <translation>&amp;Vorhersagen...</translation>
    </message>
    <message>
        <source>Predictions are written beside the project file.</source>
        <translation>Vorhersagen werden neben die Projektdatei geschrieben.</translation>
    </message>
    <message>
        <source>predicting...</source>
        <translation>Vorhersage läuft...</translation>
    </message>
    <message>
        <source>predicting: %1 of %2 images</source>
        <translation>Vorhersage: %1 von %2 Bildern</translation>
    </message>
    <message>
        <source>The prediction stopped with an error:
%1</source>
        <translation>Die Vorhersage brach mit einem Fehler ab:
%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="53"/>
        <source>CPU: %n core(s), no CUDA GPU</source>
        <translation>
            <numerusform>CPU: %n Kern, keine CUDA-GPU</numerusform>
            <numerusform>CPU: %n Kerne, keine CUDA-GPU</numerusform>
        </translation>
    </message>
    <message>
        <source>Training writes its runs beside the project file.</source>
        <translation>Das Training schreibt seine Läufe neben die Projektdatei.</translation>
    </message>
    <message>
        <source>The embeddings are written beside the project file.</source>
        <translation>Die Einbettungen werden neben die Projektdatei geschrieben.</translation>
    </message>
    <message>
        <source>The project has not been saved yet.</source>
        <translation>Das Projekt wurde noch nicht gespeichert.</translation>
    </message>
    <message>
        <source>Save it now?</source>
        <translation>Jetzt speichern?</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="59"/>
        <source>CPU: %n core(s), GPUs: %1</source>
        <translation>
            <numerusform>CPU: %n Kern, GPUs: %1</numerusform>
            <numerusform>CPU: %n Kerne, GPUs: %1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="69"/>
        <location filename="../gui/app/main_window.cpp" line="764"/>
        <location filename="../gui/app/main_window.cpp" line="773"/>
        <location filename="../gui/app/main_window.cpp" line="804"/>
        <source>Kiln Studio</source>
        <translation>Kiln Studio</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="87"/>
        <source>The training stopped with an error:
%1</source>
        <translation>Das Training wurde mit einem Fehler beendet:
%1</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="95"/>
        <source>embedding: batch %1 of %2</source>
        <translation>Einbetten: Batch %1 von %2</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="100"/>
        <source>Wrote %n embedding(s) of dimension %1 to %2.</source>
        <translation>
            <numerusform>%n Einbettung der Dimension %1 nach %2 geschrieben.</numerusform>
            <numerusform>%n Einbettungen der Dimension %1 nach %2 geschrieben.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="105"/>
        <source>%n unreadable image(s) were left out.</source>
        <translation>
            <numerusform>%n unlesbares Bild wurde ausgelassen.</numerusform>
            <numerusform>%n unlesbare Bilder wurden ausgelassen.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="114"/>
        <source>The embedding stopped with an error:
%1</source>
        <translation>Das Einbetten wurde mit einem Fehler beendet:
%1</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="133"/>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="136"/>
        <source>&amp;New Project</source>
        <translation>&amp;Neues Projekt</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="138"/>
        <source>&amp;Open Project...</source>
        <translation>Projekt ö&amp;ffnen...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="142"/>
        <source>Open Project</source>
        <translation>Projekt öffnen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="142"/>
        <location filename="../gui/app/main_window.cpp" line="155"/>
        <location filename="../gui/app/main_window.cpp" line="704"/>
        <source>Kiln projects (*.kiln)</source>
        <translation>Kiln-Projekte (*.kiln)</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="147"/>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="149"/>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="151"/>
        <source>Save &amp;As...</source>
        <translation>Speichern &amp;unter...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="155"/>
        <source>Save Project As</source>
        <translation>Projekt speichern unter</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="163"/>
        <source>Add &amp;Dataset Folder...</source>
        <translation>Daten&amp;satzordner hinzufügen...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="166"/>
        <source>Add Dataset Folder</source>
        <translation>Datensatzordner hinzufügen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="171"/>
        <source>&amp;Export Embeddings...</source>
        <translation>Einbettungen &amp;exportieren...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="174"/>
        <source>&amp;Close Project</source>
        <translation>Projekt s&amp;chließen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="177"/>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="181"/>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="184"/>
        <source>&amp;Preferences...</source>
        <translation>&amp;Einstellungen...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="191"/>
        <source>&amp;Run</source>
        <translation>&amp;Ausführen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="193"/>
        <source>&amp;Train</source>
        <translation>&amp;Trainieren</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="197"/>
        <source>&amp;Embed...</source>
        <translation>&amp;Einbetten...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="200"/>
        <source>&amp;Stop</source>
        <translation>&amp;Stoppen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="205"/>
        <source>Main</source>
        <translation>Haupt</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="221"/>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="224"/>
        <source>&amp;Datasets</source>
        <translation>&amp;Datensätze</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="225"/>
        <source>Run &amp;Configuration</source>
        <translation>Lauf&amp;konfiguration</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="226"/>
        <source>Live &amp;Plots</source>
        <translation>Live-&amp;Diagramme</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="227"/>
        <source>Run &amp;History</source>
        <translation>Lauf&amp;verlauf</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="228"/>
        <source>&amp;Embeddings</source>
        <translation>&amp;Einbettungen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="243"/>
        <source>&amp;Full Screen</source>
        <translation>&amp;Vollbild</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="251"/>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="253"/>
        <source>&amp;About Kiln Studio</source>
        <translation>Ü&amp;ber Kiln Studio</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="256"/>
        <source>About &amp;Qt</source>
        <translation>Über &amp;Qt</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="268"/>
        <source>&lt;h1&gt;Kiln Studio&lt;/h1&gt;</source>
        <translation>&lt;h1&gt;Kiln Studio&lt;/h1&gt;</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="288"/>
        <source>&lt;h2&gt;Datasets&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;Datensätze&lt;/h2&gt;</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="291"/>
        <source>Add Dataset Folder...</source>
        <translation>Datensatzordner hinzufügen...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="294"/>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="301"/>
        <source>Optimize...</source>
        <translation>Optimieren...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="303"/>
        <source>Re-encode the selected dataset as JPEG or WebP at training size</source>
        <translation>Den gewählten Datensatz als JPEG oder WebP in Trainingsgröße neu kodieren</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="320"/>
        <source>&lt;b&gt;Augmentation preview&lt;/b&gt; (the method of the Run Configuration)</source>
        <translation>&lt;b&gt;Augmentierungsvorschau&lt;/b&gt; (die Methode der Laufkonfiguration)</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="378"/>
        <source>Datasets</source>
        <translation>Datensätze</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="380"/>
        <source>Run Configuration</source>
        <translation>Laufkonfiguration</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="387"/>
        <source>Optimize Dataset...</source>
        <translation>Datensatz optimieren...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="396"/>
        <source>Live Plots</source>
        <translation>Live-Diagramme</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="398"/>
        <source>Run History</source>
        <translation>Laufverlauf</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="402"/>
        <source>Open Embeddings File...</source>
        <translation>Einbettungsdatei öffnen...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="406"/>
        <source>Open Embeddings</source>
        <translation>Einbettungen öffnen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="407"/>
        <source>Embeddings (*.csv *.pt *.npy)</source>
        <translation>Einbettungen (*.csv *.pt *.npy)</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="415"/>
        <source>Embeddings</source>
        <translation>Einbettungen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="431"/>
        <source>Save the project first: its runs are written beside it.</source>
        <translation>Speichern Sie zuerst das Projekt: Seine Läufe werden daneben abgelegt.</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="467"/>
        <source>starting...</source>
        <translation>wird gestartet...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="478"/>
        <source>Save the project first: the embeddings are written beside it.</source>
        <translation>Speichern Sie zuerst das Projekt: Die Einbettungen werden daneben abgelegt.</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="486"/>
        <source>embedding...</source>
        <translation>wird eingebettet...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="511"/>
        <source>This run cannot be resumed:
%1</source>
        <translation>Dieser Lauf kann nicht fortgesetzt werden:
%1</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="522"/>
        <source>epoch %1/%2, step %3/%4, loss %5, data_wait %6%, ETA %7</source>
        <translation>Epoche %1/%2, Schritt %3/%4, Verlust %5, data_wait %6%, Restzeit %7</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="556"/>
        <source>Finished after %n step(s).</source>
        <translation>
            <numerusform>Nach %n Schritt beendet.</numerusform>
            <numerusform>Nach %n Schritten beendet.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="557"/>
        <source>Stopped after %n step(s); it can be resumed.</source>
        <translation>
            <numerusform>Nach %n Schritt gestoppt; er kann fortgesetzt werden.</numerusform>
            <numerusform>Nach %n Schritten gestoppt; er kann fortgesetzt werden.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="597"/>
        <source>Scanning %1...</source>
        <translation>%1 wird durchsucht...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="618"/>
        <source>under 256 px</source>
        <translation>unter 256 px</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="618"/>
        <source>256-511 px</source>
        <translation>256-511 px</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="618"/>
        <source>512-1023 px</source>
        <translation>512-1023 px</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="619"/>
        <source>1024-2047 px</source>
        <translation>1024-2047 px</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="619"/>
        <source>2048 px and more</source>
        <translation>2048 px und mehr</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="624"/>
        <source>%n readable image(s), %1</source>
        <translation>
            <numerusform>%n lesbares Bild, %1</numerusform>
            <numerusform>%n lesbare Bilder, %1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="626"/>
        <source>Formats: %1</source>
        <translation>Formate: %1</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="627"/>
        <source>Longest side: %1</source>
        <translation>Längste Seite: %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="629"/>
        <source>%n unreadable file(s), left out of training:</source>
        <translation>
            <numerusform>%n unlesbare Datei, beim Training ausgelassen:</numerusform>
            <numerusform>%n unlesbare Dateien, beim Training ausgelassen:</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="691"/>
        <source>These dataset folders of the project are missing; reconnect the drive or remove them from the project:
%1</source>
        <translation>Diese Datensatzordner des Projekts fehlen; schließen Sie das Laufwerk wieder an oder entfernen Sie sie aus dem Projekt:
%1</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="703"/>
        <source>Save Project</source>
        <translation>Projekt speichern</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="746"/>
        <source>Unsaved Changes</source>
        <translation>Ungespeicherte Änderungen</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="747"/>
        <source>The project &quot;%1&quot; has unsaved changes.</source>
        <translation>Das Projekt „%1“ hat ungespeicherte Änderungen.</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="750"/>
        <source>Save them before going on?</source>
        <translation>Vor dem Fortfahren speichern?</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="805"/>
        <source>%1[*] - Kiln Studio</source>
        <translation>%1[*] - Kiln Studio</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="818"/>
        <source>%1 - %2 (missing)</source>
        <translation>%1 - %2 (fehlt)</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="819"/>
        <source>%1 - %2</source>
        <translation>%1 - %2</translation>
    </message>
    <message>
        <source>Best %1: %2 at step %3 (checkpoints/best.ckpt).</source>
        <translation>Bester Wert von %1: %2 bei Schritt %3 (checkpoints/best.ckpt).</translation>
    </message>
    <message>
        <source>The project&apos;s runs stay in %1; the project refers to them there.</source>
        <translation>Die Läufe des Projekts bleiben in %1; das Projekt verweist dorthin.</translation>
    </message>
    <message>
        <source>Export &amp;Model...</source>
        <translation>&amp;Modell exportieren...</translation>
    </message>
    <message>
        <source>The model is written beside the project file.</source>
        <translation>Das Modell wird neben die Projektdatei geschrieben.</translation>
    </message>
    <message>
        <source>exporting the model...</source>
        <translation>Modell wird exportiert...</translation>
    </message>
    <message>
        <source>The model could not be exported:
%1</source>
        <translation>Das Modell konnte nicht exportiert werden:
%1</translation>
    </message>
    <message>
        <source>Exported the %1 (%2, %3 x %4 px) to %5.</source>
        <translation>%1 (%2, %3 x %4 px) nach %5 exportiert.</translation>
    </message>
    <message>
        <source>Outputs: %1</source>
        <translation>Ausgaben: %1</translation>
    </message>
    <message>
        <source>Open &amp;Demo Project</source>
        <translation>&amp;Demoprojekt öffnen</translation>
    </message>
    <message>
        <source>The demo project could not be made:
%1</source>
        <translation>Das Demoprojekt konnte nicht angelegt werden:
%1</translation>
    </message>
</context>
<context>
    <name>kiln::gui::OptimizeDatasetDialog</name>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp"/>
        <source>Estimating the copy's size...</source>
        <translation>Die Größe der Kopie wird geschätzt...</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/datasets/optimize_dialog.cpp"/>
        <source>%n file(s), %1; the copy: about %2 (estimated from %3 of them).</source>
        <translation>
            <numerusform>%n Datei, %1; die Kopie: etwa %2 (geschätzt aus %3 davon).</numerusform>
            <numerusform>%n Dateien, %1; die Kopie: etwa %2 (geschätzt aus %3 davon).</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp"/>
        <source>That is larger than the dataset: these images are already compact. Lower the quality, choose WebP, or keep them as they are.</source>
        <translation>Das ist größer als der Datensatz: diese Bilder sind schon kompakt. Senken Sie die Qualität, wählen Sie WebP oder lassen Sie sie, wie sie sind.</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp"/>
        <source>Optimize Anyway</source>
        <translation>Trotzdem optimieren</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="23"/>
        <source>Optimize Dataset</source>
        <translation>Datensatz optimieren</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="32"/>
        <source>keep the size</source>
        <translation>Größe beibehalten</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="33"/>
        <source> px</source>
        <translation> px</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="39"/>
        <source>Decoding PNG and large images costs CPU in every epoch; JPEG or WebP at the training resolution costs far less.</source>
        <translation>Das Dekodieren von PNG und großen Bildern kostet in jeder Epoche CPU; JPEG oder WebP in Trainingsauflösung kostet weit weniger.</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="45"/>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="46"/>
        <source>Destination</source>
        <translation>Ziel</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="47"/>
        <source>Format</source>
        <translation>Format</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="48"/>
        <source>Longest side at most</source>
        <translation>Längste Seite höchstens</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="49"/>
        <source>Quality</source>
        <translation>Qualität</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="51"/>
        <source>Optimize</source>
        <translation>Optimieren</translation>
    </message>
    <message>
        <location filename="../gui/datasets/optimize_dialog.cpp" line="92"/>
        <source>Optimizing...</source>
        <translation>Wird optimiert...</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/datasets/optimize_dialog.cpp" line="107"/>
        <source>Stopped after %n image(s).</source>
        <translation>
            <numerusform>Nach %n Bild gestoppt.</numerusform>
            <numerusform>Nach %n Bildern gestoppt.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/datasets/optimize_dialog.cpp" line="109"/>
        <source>Wrote %n image(s): %1 became %2.</source>
        <translation>
            <numerusform>%n Bild geschrieben: aus %1 wurden %2.</numerusform>
            <numerusform>%n Bilder geschrieben: aus %1 wurden %2.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/datasets/optimize_dialog.cpp" line="114"/>
        <source>%n unreadable file(s) skipped.</source>
        <translation>
            <numerusform>%n unlesbare Datei übersprungen.</numerusform>
            <numerusform>%n unlesbare Dateien übersprungen.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kiln::gui::PreferencesDialog</name>
    <message>
        <location filename="../gui/app/preferences_dialog.cpp" line="50"/>
        <source>Preferences</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <location filename="../gui/app/preferences_dialog.cpp" line="53"/>
        <location filename="../gui/app/preferences_dialog.cpp" line="59"/>
        <source>As the system</source>
        <translation>Wie das System</translation>
    </message>
    <message>
        <location filename="../gui/app/preferences_dialog.cpp" line="60"/>
        <source>Light</source>
        <translation>Hell</translation>
    </message>
    <message>
        <location filename="../gui/app/preferences_dialog.cpp" line="61"/>
        <source>Dark</source>
        <translation>Dunkel</translation>
    </message>
    <message>
        <location filename="../gui/app/preferences_dialog.cpp" line="67"/>
        <source>A new language applies when Kiln Studio starts again.</source>
        <translation>Eine neue Sprache gilt beim nächsten Start von Kiln Studio.</translation>
    </message>
    <message>
        <location filename="../gui/app/preferences_dialog.cpp" line="70"/>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <location filename="../gui/app/preferences_dialog.cpp" line="71"/>
        <source>Theme</source>
        <translation>Farbschema</translation>
    </message>
</context>
<context>
    <name>kiln::gui::Project</name>
    <message>
        <location filename="../gui/project/project.cpp" line="14"/>
        <source>Untitled</source>
        <translation>Unbenannt</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="27"/>
        <source>Cannot open %1: %2.</source>
        <translation>%1 kann nicht geöffnet werden: %2.</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="32"/>
        <source>%1 is not a Kiln project: %2 at byte %3.</source>
        <translation>%1 ist kein Kiln-Projekt: %2 bei Byte %3.</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="37"/>
        <source>%1 is not a Kiln project: it holds no JSON object.</source>
        <translation>%1 ist kein Kiln-Projekt: Es enthält kein JSON-Objekt.</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="44"/>
        <source>%1 is not a Kiln project: it has no valid format_version.</source>
        <translation>%1 ist kein Kiln-Projekt: Es hat keine gültige format_version.</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="48"/>
        <source>%1 was saved by a newer Kiln Studio (project format %2; this version reads up to %3). Update Kiln Studio to open it; the file is left as it is.</source>
        <translation>%1 wurde mit einem neueren Kiln Studio gespeichert (Projektformat %2; diese Version liest bis %3). Aktualisieren Sie Kiln Studio, um es zu öffnen; die Datei bleibt unverändert.</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="62"/>
        <source>%1: dataset %2 has no path.</source>
        <translation>%1: Datensatz %2 hat keinen Pfad.</translation>
    </message>
    <message>
        <location filename="../gui/project/project.cpp" line="97"/>
        <source>Cannot save %1: %2. The previous file, if any, is unchanged.</source>
        <translation>%1 kann nicht gespeichert werden: %2. Eine vorherige Datei bleibt unverändert.</translation>
    </message>
</context>
<context>
    <name>kiln::gui::RunConfigForm</name>
    <message>
        <location filename="../gui/training/run_config_form.cpp"/>
        <source>Advanced settings</source>
        <translation>Erweiterte Einstellungen</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp"/>
        <source>Batches summed into each optimizer step</source>
        <translation>Batches, die in jeden Optimiererschritt eingehen</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp"/>
        <source>the method's views; JSON to change them, e.g. {"random_resize": {"min_scale": 0.2}}</source>
        <translation>die Ansichten der Methode; JSON ändert sie, z. B. {"random_resize": {"min_scale": 0.2}}</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp"/>
        <source>transform_args besides the image size: random_resize, random_flip, color_jitter, random_gray_scale, gaussian_blur, normalize, and for DINO global_view_1, global_view_2, local_view. The Datasets tab previews the views.</source>
        <translation>transform_args außer der Bildgröße: random_resize, random_flip, color_jitter, random_gray_scale, gaussian_blur, normalize, und für DINO global_view_1, global_view_2, local_view. Der Reiter Datensätze zeigt die Ansichten.</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp"/>
        <source>each epoch</source>
        <translation>jede Epoche</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp"/>
        <source> steps</source>
        <translation> Schritte</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp"/>
        <source>last.ckpt is also written every this many steps</source>
        <translation>last.ckpt wird zusätzlich alle so vielen Schritte geschrieben</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp"/>
        <source>off; a project name writes an offline W&amp;B run, for wandb sync</source>
        <translation>aus; ein Projektname schreibt einen Offline-W&amp;B-Lauf für wandb sync</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp"/>
        <source>Optimizer</source>
        <translation>Optimierer</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp"/>
        <source>Learning rate</source>
        <translation>Lernrate</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp"/>
        <source>Weight decay</source>
        <translation>Gewichtszerfall</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp"/>
        <source>Warm-up epochs</source>
        <translation>Aufwärm-Epochen</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp"/>
        <source>Gradient accumulation</source>
        <translation>Gradientenakkumulation</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp"/>
        <source>Augmentation</source>
        <translation>Augmentierung</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp"/>
        <source>Checkpoint every</source>
        <translation>Checkpoint alle</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp"/>
        <source>Weights &amp; Biases</source>
        <translation>Weights &amp; Biases</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp"/>
        <source>%1 per 256 images, scaled with the batch size</source>
        <translation>%1 je 256 Bilder, mit der Batchgröße skaliert</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp"/>
        <source>%1 (at most a tenth of the run)</source>
        <translation>%1 (höchstens ein Zehntel des Laufs)</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp"/>
        <source>Augmentation takes a JSON object, e.g. {"color_jitter": {"prob": 0.5}}</source>
        <translation>Augmentierung erwartet ein JSON-Objekt, z. B. {"color_jitter": {"prob": 0.5}}</translation>
    </message>
    <message>
        <source>COCO annotation files</source>
        <translation>COCO-Annotationsdateien</translation>
    </message>
    <message>
        <source>YOLO dataset (data.yaml)</source>
        <translation>YOLO-Datensatz (data.yaml)</translation>
    </message>
    <message>
        <source>data.yaml of an Ultralytics-layout dataset (images/ and labels/ beside it)</source>
        <translation>data.yaml eines Datensatzes im Ultralytics-Layout (images/ und labels/ daneben)</translation>
    </message>
    <message>
        <source>Labels</source>
        <translation>Beschriftungen</translation>
    </message>
    <message>
        <source>YOLO data</source>
        <translation>YOLO-Daten</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="62"/>
        <source> px</source>
        <translation> px</translation>
    </message>
    <message>
        <source>Teacher</source>
        <translation>Lehrer</translation>
    </message>
    <message>
        <source>the teacher&apos;s exported model: a project run, or a .pt file</source>
        <translation>das exportierte Modell des Lehrers: ein Lauf des Projekts oder eine .pt-Datei</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="69"/>
        <source>Batch-norm statistics over all devices</source>
        <translation>Batch-Norm-Statistik über alle Geräte</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="71"/>
        <source>TensorBoard event files</source>
        <translation>TensorBoard-Ereignisdateien</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="76"/>
        <source>off; a folder or http(s):// server to log to MLflow</source>
        <translation>aus; ein Ordner oder http(s)://-Server für MLflow</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="79"/>
        <source>a new folder in the project&apos;s runs</source>
        <translation>ein neuer Ordner in den Läufen des Projekts</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="82"/>
        <source>Dataset</source>
        <translation>Datensatz</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="83"/>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="84"/>
        <source>Method</source>
        <translation>Methode</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="85"/>
        <source>Epochs</source>
        <translation>Epochen</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="86"/>
        <source>Batch size</source>
        <translation>Batchgröße</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="87"/>
        <source>Image size</source>
        <translation>Bildgröße</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="88"/>
        <source>Accelerator</source>
        <translation>Beschleuniger</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="89"/>
        <source>Devices</source>
        <translation>Geräte</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="90"/>
        <source>Nodes</source>
        <translation>Knoten</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="91"/>
        <source>Sync batch norm</source>
        <translation>Batch-Norm synchronisieren</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="92"/>
        <source>Precision</source>
        <translation>Genauigkeit</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="93"/>
        <source>Loader workers</source>
        <translation>Lader-Threads</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="94"/>
        <source>Loggers</source>
        <translation>Logger</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="95"/>
        <source>MLflow</source>
        <translation>MLflow</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="96"/>
        <source>Output folder</source>
        <translation>Ausgabeordner</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="97"/>
        <source>Seed</source>
        <translation>Seed</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="67"/>
        <location filename="../gui/training/run_config_form.cpp" line="144"/>
        <source>auto</source>
        <translation>automatisch</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="145"/>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="148"/>
        <source>CUDA %1: %2 (%3)</source>
        <translation>CUDA %1: %2 (%3)</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="152"/>
        <source>CUDA</source>
        <translation>CUDA</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="156"/>
        <source>No CUDA GPU is visible.</source>
        <translation>Keine CUDA-GPU sichtbar.</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="157"/>
        <source>This Kiln&apos;s LibTorch has no CUDA.</source>
        <translation>Die LibTorch dieses Kiln hat kein CUDA.</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="176"/>
        <source>float16 needs a CUDA GPU; on the CPU use the bf16 precisions.</source>
        <translation>float16 braucht eine CUDA-GPU; auf der CPU nehmen Sie die bf16-Genauigkeiten.</translation>
    </message>
    <message>
        <source>bfloat16 needs compute capability 8.0 or newer; %1 has %2.%3. Use 16-mixed.</source>
        <translation>bfloat16 braucht Compute Capability 8.0 oder neuer; %1 hat %2.%3. Nehmen Sie 16-mixed.</translation>
    </message>
    <message>
        <location filename="../gui/training/run_config_form.cpp" line="186"/>
        <source>auto (%1)</source>
        <translation>automatisch (%1)</translation>
    </message>
    <message>
        <source>Image classification (fine-tuning)</source>
        <translation>Bildklassifikation (Feinabstimmung)</translation>
    </message>
    <message>
        <source>Semantic segmentation (fine-tuning)</source>
        <translation>Semantische Segmentierung (Feinabstimmung)</translation>
    </message>
    <message>
        <source>Object detection (fine-tuning)</source>
        <translation>Objekterkennung (Feinabstimmung)</translation>
    </message>
    <message>
        <source>Instance segmentation (fine-tuning)</source>
        <translation>Instanzsegmentierung (Feinabstimmung)</translation>
    </message>
    <message>
        <source>COCO JSON of the training images&apos; objects</source>
        <translation>COCO-JSON mit den Objekten der Trainingsbilder</translation>
    </message>
    <message>
        <source>COCO JSON of the validation images&apos; objects</source>
        <translation>COCO-JSON mit den Objekten der Validierungsbilder</translation>
    </message>
    <message>
        <source>Training annotations</source>
        <translation>Trainingsannotationen</translation>
    </message>
    <message>
        <source>Validation annotations</source>
        <translation>Validierungsannotationen</translation>
    </message>
    <message>
        <source>Pretraining (self-supervised)</source>
        <translation>Vortraining (selbstüberwacht)</translation>
    </message>
    <message>
        <source>folder of PNG masks of class ids, named as the images</source>
        <translation>Ordner mit PNG-Masken der Klassen-IDs, benannt wie die Bilder</translation>
    </message>
    <message>
        <source>folder of the validation images&apos; masks</source>
        <translation>Ordner mit den Masken der Validierungsbilder</translation>
    </message>
    <message>
        <source>JSON file naming the class ids, e.g. classes.json</source>
        <translation>JSON-Datei mit den Namen der Klassen-IDs, z. B. classes.json</translation>
    </message>
    <message>
        <source>random weights</source>
        <translation>zufällige Gewichte</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <source>Validation dataset</source>
        <translation>Validierungsdatensatz</translation>
    </message>
    <message>
        <source>Training masks</source>
        <translation>Trainingsmasken</translation>
    </message>
    <message>
        <source>Validation masks</source>
        <translation>Validierungsmasken</translation>
    </message>
    <message>
        <source>Classes</source>
        <translation>Klassen</translation>
    </message>
    <message>
        <source>Start from</source>
        <translation>Ausgangsgewichte</translation>
    </message>
</context>
<context>
    <name>kiln::gui::RunHistoryModel</name>
    <message numerus="yes">
        <location filename="../gui/runs/run_history.cpp"/>
        <source>%n step(s)</source>
        <translation>
            <numerusform>%n Schritt</numerusform>
            <numerusform>%n Schritte</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/runs/run_history.cpp"/>
        <source>%n epoch(s)</source>
        <translation>
            <numerusform>%n Epoche</numerusform>
            <numerusform>%n Epochen</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp"/>
        <source>auto</source>
        <translation>auto</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp"/>
        <source>Dataset</source>
        <translation>Datensatz</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp"/>
        <source>Length</source>
        <translation>Länge</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp"/>
        <source>Image size</source>
        <translation>Bildgröße</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp"/>
        <source>Learning rate</source>
        <translation>Lernrate</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp"/>
        <source>Tags</source>
        <translation>Schlagwörter</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp"/>
        <source>Notes</source>
        <translation>Notizen</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="145"/>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="147"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="149"/>
        <source>Method</source>
        <translation>Methode</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="151"/>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="153"/>
        <source>Started</source>
        <translation>Gestartet</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="155"/>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="157"/>
        <source>Steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="159"/>
        <source>Final loss</source>
        <translation>Letzter Verlust</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="161"/>
        <source>Images/s</source>
        <translation>Bilder/s</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="163"/>
        <source>data_wait (median)</source>
        <translation>data_wait (Median)</translation>
    </message>
    <message>
        <source>Method or task</source>
        <translation>Methode oder Aufgabe</translation>
    </message>
    <message>
        <source>Best validation</source>
        <translation>Beste Validierung</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>Gestoppt</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>Abgeschlossen</translation>
    </message>
    <message>
        <source>Interrupted</source>
        <translation>Unterbrochen</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>Läuft</translation>
    </message>
</context>
<context>
    <name>kiln::gui::RunHistoryView</name>
    <message>
        <location filename="../gui/runs/run_history.cpp"/>
        <source>Filter by name, tag, notes, model, dataset, status...</source>
        <translation>Nach Name, Schlagwort, Notiz, Modell, Datensatz, Status filtern...</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp"/>
        <source>Double-click a run's name, tags or notes to edit them</source>
        <translation>Doppelklick auf Name, Schlagwörter oder Notizen eines Laufs, um sie zu bearbeiten</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp"/>
        <source>Run History</source>
        <translation>Laufverlauf</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp"/>
        <source>The change could not be saved: %1</source>
        <translation>Die Änderung konnte nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp"/>
        <source>Compare...</source>
        <translation>Vergleichen...</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp"/>
        <source>The selected runs' settings, results and validation metrics side by side</source>
        <translation>Einstellungen, Ergebnisse und Validierungsmetriken der ausgewählten Läufe nebeneinander</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp"/>
        <source>Curves of</source>
        <translation>Kurven von</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="179"/>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="182"/>
        <source>Open Folder</source>
        <translation>Ordner öffnen</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="185"/>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="187"/>
        <source>Continue an interrupted or stopped run from its last checkpoint</source>
        <translation>Einen unterbrochenen oder gestoppten Lauf ab seinem letzten Checkpoint fortsetzen</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="189"/>
        <source>Delete Run...</source>
        <translation>Lauf löschen...</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="201"/>
        <source>step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="202"/>
        <source>train_loss</source>
        <translation>train_loss</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="317"/>
        <location filename="../gui/runs/run_history.cpp" line="329"/>
        <source>Delete Run</source>
        <translation>Lauf löschen</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="318"/>
        <source>Delete the run in %1 with its checkpoints, exported model and logs?</source>
        <translation>Den Lauf in %1 mit seinen Checkpoints, dem exportierten Modell und den Protokollen löschen?</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_history.cpp" line="330"/>
        <source>Some files in %1 could not be deleted; check their permissions.</source>
        <translation>Einige Dateien in %1 konnten nicht gelöscht werden; prüfen Sie ihre Berechtigungen.</translation>
    </message>
    <message>
        <source>Export Model...</source>
        <translation>Modell exportieren...</translation>
    </message>
    <message>
        <source>Write the run&apos;s model as ONNX, for ONNX Runtime and TensorRT</source>
        <translation>Das Modell des Laufs als ONNX schreiben, für ONNX Runtime und TensorRT</translation>
    </message>
</context>
<context>
    <name>kiln::gui::StartPage</name>
    <message>
        <source>&lt;h1&gt;Kiln Studio&lt;/h1&gt;</source>
        <translation>&lt;h1&gt;Kiln Studio&lt;/h1&gt;</translation>
    </message>
    <message>
        <source>Pretrain backbones on your unlabelled images, fine-tune them on labelled ones, and watch where the time goes.</source>
        <translation>Trainieren Sie Backbones auf Ihren unbeschrifteten Bildern vor, stimmen Sie sie auf beschrifteten fein ab und sehen Sie, wohin die Zeit geht.</translation>
    </message>
    <message>
        <source>New Project</source>
        <translation>Neues Projekt</translation>
    </message>
    <message>
        <source>Open Project...</source>
        <translation>Projekt öffnen...</translation>
    </message>
    <message>
        <source>Open Demo Project</source>
        <translation>Demoprojekt öffnen</translation>
    </message>
    <message>
        <source>Fashion-MNIST as image folders, with settings that pretrain a small network in a few minutes on a CPU</source>
        <translation>Fashion-MNIST als Bildordner, mit Einstellungen, die ein kleines Netz in wenigen Minuten auf einer CPU vortrainieren</translation>
    </message>
    <message>
        <source>&lt;b&gt;Recent projects&lt;/b&gt;</source>
        <translation>&lt;b&gt;Zuletzt verwendete Projekte&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Projects you open or save are listed here.</source>
        <translation>Hier erscheinen die Projekte, die Sie öffnen oder speichern.</translation>
    </message>
    <message>
        <source>%1 (not found)</source>
        <translation>%1 (nicht gefunden)</translation>
    </message>
    <message>
        <source>importing Fashion-MNIST: %1 of %2 images</source>
        <translation>Fashion-MNIST wird importiert: %1 von %2 Bildern</translation>
    </message>
</context>
<context>
    <name>kiln::gui::ExportModelDialog</name>
    <message>
        <source>Export Model</source>
        <translation>Modell exportieren</translation>
    </message>
    <message>
        <source>%1 (%2, %3)</source>
        <translation>%1 (%2, %3)</translation>
    </message>
    <message>
        <source>backbone</source>
        <translation>Backbone</translation>
    </message>
    <message>
        <source>Browse...</source>
        <translation>Durchsuchen...</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Kiln models (*.ckpt *.pt *.pth)</source>
        <translation>Kiln-Modelle (*.ckpt *.pt *.pth)</translation>
    </message>
    <message>
        <source>fp32</source>
        <translation>fp32</translation>
    </message>
    <message>
        <source>fp16 (half the size; for GPUs)</source>
        <translation>fp16 (halbe Größe; für GPUs)</translation>
    </message>
    <message>
        <source>dynamic (any number of images)</source>
        <translation>dynamisch (beliebig viele Bilder)</translation>
    </message>
    <message>
        <source> px</source>
        <translation> px</translation>
    </message>
    <message>
        <source>as trained</source>
        <translation>wie trainiert</translation>
    </message>
    <message>
        <source>ONNX (opset 17) for ONNX Runtime and TensorRT. The model takes normalised RGB images; the file&apos;s metadata says how to prepare them and names the classes.</source>
        <translation>ONNX (Opset 17) für ONNX Runtime und TensorRT. Das Modell erwartet normalisierte RGB-Bilder; die Metadaten der Datei beschreiben die Vorverarbeitung und nennen die Klassen.</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>Genauigkeit</translation>
    </message>
    <message>
        <source>Batch</source>
        <translation>Batch</translation>
    </message>
    <message>
        <source>Image size</source>
        <translation>Bildgröße</translation>
    </message>
    <message>
        <source>Write to</source>
        <translation>Schreiben nach</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exportieren</translation>
    </message>
</context>
<context>
    <name>kiln::gui::PredictDialog</name>
    <message>
        <source>Predict</source>
        <translation>Vorhersagen</translation>
    </message>
    <message>
        <source>%1 (%2, %3)</source>
        <translation>%1 (%2, %3)</translation>
    </message>
    <message>
        <source>Browse...</source>
        <translation>Durchsuchen...</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Kiln checkpoints (*.ckpt)</source>
        <translation>Kiln-Checkpoints (*.ckpt)</translation>
    </message>
    <message>
        <source>Images to predict on</source>
        <translation>Bilder für die Vorhersage</translation>
    </message>
    <message>
        <source>Also write the images with their detections drawn</source>
        <translation>Auch die Bilder mit eingezeichneten Erkennungen schreiben</translation>
    </message>
    <message>
        <source>Images</source>
        <translation>Bilder</translation>
    </message>
    <message>
        <source>Write to</source>
        <translation>Schreiben nach</translation>
    </message>
</context>
<context>
    <name>kiln::gui::SettingsDialog</name>
    <message>
        <source>Browse...</source>
        <translation>Durchsuchen...</translation>
    </message>
</context>
<context>
    <name>kiln::gui::RunComparisonDialog</name>
    <message>
        <location filename="../gui/runs/run_comparison.cpp"/>
        <source>Only differences</source>
        <translation>Nur Unterschiede</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_comparison.cpp"/>
        <source>Compare Runs</source>
        <translation>Läufe vergleichen</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_comparison.cpp"/>
        <source>Results</source>
        <translation>Ergebnisse</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_comparison.cpp"/>
        <source>Validation (last evaluation)</source>
        <translation>Validierung (letzte Auswertung)</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_comparison.cpp"/>
        <source>These runs are of different tasks: their validation metrics do not compare.</source>
        <translation>Diese Läufe gehören zu verschiedenen Aufgaben: ihre Validierungsmetriken sind nicht vergleichbar.</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_comparison.cpp"/>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_comparison.cpp"/>
        <source>Hide the settings that every run shares</source>
        <translation>Einstellungen ausblenden, die alle Läufe teilen</translation>
    </message>
    <message>
        <location filename="../gui/runs/run_comparison.cpp"/>
        <source>(not set)</source>
        <translation>(nicht gesetzt)</translation>
    </message>
</context>
<context>
    <name>kiln::gui::UserGuideDialog</name>
    <message>
        <location filename="../gui/app/user_guide_dialog.cpp"/>
        <source>Kiln User Guide</source>
        <translation>Kiln-Benutzerhandbuch</translation>
    </message>
    <message>
        <location filename="../gui/app/user_guide_dialog.cpp"/>
        <source>The user guide is missing from this build.</source>
        <translation>Das Benutzerhandbuch fehlt in diesem Build.</translation>
    </message>
    <message>
        <location filename="../gui/app/user_guide_dialog.cpp"/>
        <source>Find in the guide (Enter: next)</source>
        <translation>Im Handbuch suchen (Eingabe: nächster Treffer)</translation>
    </message>
    <message>
        <location filename="../gui/app/user_guide_dialog.cpp"/>
        <source>Find:</source>
        <translation>Suchen:</translation>
    </message>
</context>
<context>
    <name>kiln::gui::ShortcutsDialog</name>
    <message>
        <location filename="../gui/app/shortcuts_dialog.cpp"/>
        <source>Keyboard Shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <location filename="../gui/app/shortcuts_dialog.cpp"/>
        <source>Menu</source>
        <translation>Menü</translation>
    </message>
    <message>
        <location filename="../gui/app/shortcuts_dialog.cpp"/>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <location filename="../gui/app/shortcuts_dialog.cpp"/>
        <source>Keys</source>
        <translation>Tasten</translation>
    </message>
</context>
</TS>
