<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>kiln::gui::AboutDialog</name>
    <message>
        <location filename="../gui/app/about_dialog.cpp" line="13"/>
        <source>About Kiln Studio</source>
        <translation>关于 Kiln Studio</translation>
    </message>
    <message>
        <location filename="../gui/app/about_dialog.cpp" line="26"/>
        <source>A desktop workstation for self-supervised pretraining and embedding of image datasets, on CPUs and GPUs.</source>
        <translation>用于图像数据集自监督预训练和嵌入的桌面工作站，支持 CPU 和 GPU。</translation>
    </message>
    <message>
        <location filename="../gui/app/about_dialog.cpp" line="41"/>
        <source>Licensed under the GNU General Public License, version 3 or later.</source>
        <translation>依据 GNU 通用公共许可证第 3 版或更高版本授权。</translation>
    </message>
</context>
<context>
    <name>kiln::gui::MainWindow</name>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="20"/>
        <source>CPU: %n core(s), no CUDA GPU</source>
        <translation>
            <numerusform>CPU：%n 个核心，无 CUDA GPU</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/app/main_window.cpp" line="26"/>
        <source>CPU: %n core(s), GPUs: %1</source>
        <translation>
            <numerusform>CPU：%n 个核心，GPU：%1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="34"/>
        <source>Kiln Studio</source>
        <translation>Kiln Studio</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="53"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="55"/>
        <source>&amp;New Project</source>
        <translation>新建项目(&amp;N)</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="57"/>
        <source>&amp;Open Project...</source>
        <translation>打开项目(&amp;O)...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="59"/>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="62"/>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="64"/>
        <source>Save &amp;As...</source>
        <translation>另存为(&amp;A)...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="67"/>
        <source>&amp;Export Embeddings...</source>
        <translation>导出嵌入(&amp;E)...</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="70"/>
        <source>&amp;Close Project</source>
        <translation>关闭项目(&amp;C)</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="72"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="76"/>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="78"/>
        <source>&amp;Train</source>
        <translation>训练(&amp;T)</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="80"/>
        <source>&amp;Embed</source>
        <translation>嵌入(&amp;E)</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="82"/>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="85"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="88"/>
        <source>&amp;Datasets</source>
        <translation>数据集(&amp;D)</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="89"/>
        <source>Run &amp;Configuration</source>
        <translation>运行配置(&amp;C)</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="90"/>
        <source>Live &amp;Plots</source>
        <translation>实时图表(&amp;P)</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="91"/>
        <source>Run &amp;History</source>
        <translation>运行历史(&amp;H)</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="92"/>
        <source>&amp;Embeddings</source>
        <translation>嵌入(&amp;E)</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="96"/>
        <source>&amp;Full Screen</source>
        <translation>全屏(&amp;F)</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="104"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="106"/>
        <source>&amp;About Kiln Studio</source>
        <translation>关于 Kiln Studio(&amp;A)</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="109"/>
        <source>About &amp;Qt</source>
        <translation>关于 Qt(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="121"/>
        <source>&lt;h1&gt;Kiln Studio&lt;/h1&gt;</source>
        <translation>&lt;h1&gt;Kiln Studio&lt;/h1&gt;</translation>
    </message>
    <message>
        <location filename="../gui/app/main_window.cpp" line="123"/>
        <source>Pretrain backbones on your unlabelled images, watch where the time goes, and export embeddings.</source>
        <translation>在未标注的图像上预训练骨干网络，查看时间花在哪里，并导出嵌入。</translation>
    </message>
</context>
</TS>
