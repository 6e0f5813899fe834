<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>kiln::gui::MainWindow</name>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="29"/>
        <source>CPU: %n core(s), no CUDA GPU</source>
        <translation>
            <numerusform>CPU: %n core, no CUDA GPU</numerusform>
            <numerusform>CPU: %n cores, no CUDA GPU</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="35"/>
        <source>CPU: %n core(s), GPUs: %1</source>
        <translation>
            <numerusform>CPU: %n core, GPUs: %1</numerusform>
            <numerusform>CPU: %n cores, GPUs: %1</numerusform>
        </translation>
    </message>
</context>
</TS>
