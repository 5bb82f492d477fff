<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AlgorithmCatalog</name>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>unlimited</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>no effect</source>
        <translation>无效果</translation>
    </message>
    <message>
        <source>not used</source>
        <translation>未使用</translation>
    </message>
    <message>
        <source>random draws, grid parameters swept (Ray&apos;s BasicVariantGenerator)</source>
        <translation>随机抽样，网格参数逐一遍历（Ray 的 BasicVariantGenerator）</translation>
    </message>
    <message>
        <source>every combination of the finite domains (NNI&apos;s grid search)</source>
        <translation>有限取值域的所有组合（NNI 的网格搜索）</translation>
    </message>
    <message>
        <source>tree-structured Parzen estimator; one or several objectives (Optuna&apos;s TPESampler)</source>
        <translation>树结构 Parzen 估计器（TPE）；支持单目标或多目标（Optuna 的 TPESampler）</translation>
    </message>
    <message>
        <source>Gaussian-process Bayesian optimisation of numeric domains (Ray&apos;s BayesOptSearch)</source>
        <translation>基于高斯过程的数值取值域贝叶斯优化（Ray 的 BayesOptSearch）</translation>
    </message>
    <message>
        <source>CMA-ES over the numeric parameters (Optuna&apos;s CmaEsSampler)</source>
        <translation>在数值参数上进行 CMA-ES 搜索（Optuna 的 CmaEsSampler）</translation>
    </message>
    <message>
        <source>the centre of each range</source>
        <translation>各范围的中点</translation>
    </message>
    <message>
        <source>model-based configs for hyperband; needs scheduler hyperband (HpBandSter&apos;s BOHB)</source>
        <translation>为 HyperBand 提供基于模型的配置；需要调度器 hyperband（HpBandSter 的 BOHB）</translation>
    </message>
    <message>
        <source>the experiment&apos;s</source>
        <translation>同实验设置</translation>
    </message>
    <message>
        <source>runs every trial to the end, in order (Ray&apos;s FIFOScheduler)</source>
        <translation>按顺序将每个试验运行到结束（Ray 的 FIFOScheduler）</translation>
    </message>
    <message>
        <source>asynchronous successive halving: stops trials that fall behind at each rung</source>
        <translation>异步连续减半（ASHA）：在每一级停止落后的试验</translation>
    </message>
    <message>
        <source>median stopping rule: stops trials worse than the median</source>
        <translation>中位数停止规则：停止差于中位数的试验</translation>
    </message>
    <message>
        <source>synchronous HyperBand: pauses trials at each milestone, resumes the best</source>
        <translation>同步 HyperBand：在每个里程碑暂停试验，并继续最好的试验</translation>
    </message>
    <message>
        <source>population based training: weak trials copy a strong one and change its config</source>
        <translation>基于种群的训练（PBT）：弱的试验复制一个强的试验并修改其配置</translation>
    </message>
    <message>
        <source>population based bandits: PBT with the new config chosen by a GP bandit</source>
        <translation>基于种群的老虎机（PB2）：由 GP 老虎机选择新配置的 PBT</translation>
    </message>
    <message>
        <source>required</source>
        <translation>必填</translation>
    </message>
    <message>
        <source>replays the config changes of one PBT trial (written by pbt-replay)</source>
        <translation>重放某个 PBT 试验的配置变更（由 pbt-replay 生成）</translation>
    </message>
    <message>
        <source>no options</source>
        <translation>无选项</translation>
    </message>
    <message>
        <source>%1 = %2</source>
        <translation>%1 = %2</translation>
    </message>
    <message>
        <source>the base scheduler&apos;s</source>
        <translation>与基础调度器相同</translation>
    </message>
    <message>
        <source>gives the leading trials more workers as slots free up, over a base scheduler (Ray&apos;s ResourceChangingScheduler)</source>
        <translation>在基础调度器之上，空出资源时为领先的试验分配更多 worker（Ray 的 ResourceChangingScheduler）</translation>
    </message>
</context>
<context>
    <name>ClusterSummary</name>
    <message numerus="yes">
        <source>%n CPU(s)</source>
        <translation>
            <numerusform>%n 个 CPU</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 CPUs</source>
        <translation>%1 个 CPU</translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s)</source>
        <translation>
            <numerusform>%n 个 GPU</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 to %2 workers</source>
        <translation>%1 到 %2 个 worker</translation>
    </message>
    <message numerus="yes">
        <source>up to %n worker(s)</source>
        <translation>
            <numerusform>最多 %n 个 worker</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (%2): %3</source>
        <translation>%1（%2）：%3</translation>
    </message>
    <message>
        <source> (head)</source>
        <translation>（head）</translation>
    </message>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>另有 %n 个</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 runs trials on this machine only.</source>
        <translation>%1 只在本机运行 trial。</translation>
    </message>
    <message>
        <source>%1 lists no node to reach over SSH.</source>
        <translation>%1 没有列出可通过 SSH 访问的节点。</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n node(s) over SSH as %2: %3.</source>
        <translation>
            <numerusform>%1：通过 SSH 以 %2 访问 %n 个节点：%3。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 asks Slurm for nodes as trials wait (%n node type(s)): %2.</source>
        <translation>
            <numerusform>%1 在 trial 等待时向 Slurm 申请节点（%n 种节点类型）：%2。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 makes nodes with your commands as trials wait (provider command, %n node type(s)): %2.</source>
        <translation>
            <numerusform>%1 在 trial 等待时用您的命令创建节点（provider command，%n 种节点类型）：%2。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>At most %n worker(s) in all.</source>
        <translation>
            <numerusform>总共最多 %n 个 worker。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ExperimentFields</name>
    <message>
        <source>the command ends with a lone backslash</source>
        <translation>命令以单独的反斜杠结尾</translation>
    </message>
    <message>
        <source>the command has an unterminated &apos; quote</source>
        <translation>命令中的 &apos; 引号未闭合</translation>
    </message>
    <message>
        <source>the command has an unterminated &quot; quote</source>
        <translation>命令中的 &quot; 引号未闭合</translation>
    </message>
</context>
<context>
    <name>HelpMenu</name>
    <message>
        <source>No documentation found: share/doc/tunedeck/README.md is not installed beside the app.</source>
        <translation>未找到文档：应用旁未安装 share/doc/tunedeck/README.md。</translation>
    </message>
    <message>
        <source>No program opens %1 on this desktop.</source>
        <translation>此桌面上没有程序可以打开 %1。</translation>
    </message>
    <message>
        <source>About Tunedeck</source>
        <translation>关于 Tunedeck</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Tunedeck %1&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;Tunedeck %1&lt;/h3&gt;</translation>
    </message>
    <message>
        <source>Hyperparameter tuning: trials on the CPUs and GPUs of this machine or a cluster, watched live and recorded in SQLite.&lt;br&gt;&lt;br&gt;Built from commit %1 with Qt %2.</source>
        <translation>超参数调优：在本机或集群的 CPU 和 GPU 上运行试验，实时查看并记录在 SQLite 中。&lt;br&gt;&lt;br&gt;基于提交 %1 构建，Qt %2。</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Documentation</source>
        <translation>文档(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;About Tunedeck</source>
        <translation>关于 Tunedeck(&amp;A)</translation>
    </message>
</context>
<context>
    <name>NodeUsageModel</name>
    <message>
        <source>%1 (rank %2)</source>
        <translation>%1（rank %2）</translation>
    </message>
</context>
<context>
    <name>QApplication</name>
    <message>
        <source>Tunedeck desktop app</source>
        <translation>Tunedeck 桌面应用</translation>
    </message>
    <message>
        <source>An experiment file to run, or an experiment folder (or its experiment.sqlite) under the engine&apos;s results root to open.</source>
        <translation>要运行的实验文件，或要打开的实验文件夹（或其中的 experiment.sqlite），该文件夹须位于引擎的结果根目录下。</translation>
    </message>
    <message>
        <source>The local engine&apos;s socket (default %1).</source>
        <translation>本地引擎的套接字（默认为 %1）。</translation>
    </message>
    <message>
        <source>Attach to an engine at tcp:HOST:PORT, or to one on a server through an SSH tunnel: ssh://USER@HOST[:PORT].</source>
        <translation>连接到位于 tcp:HOST:PORT 的引擎，或通过 SSH 隧道连接到服务器上的引擎：ssh://USER@HOST[:PORT]。</translation>
    </message>
    <message>
        <source>The engine&apos;s token, when it listens on TCP (the first line of this file).</source>
        <translation>引擎在 TCP 上监听时所需的令牌（取该文件的第一行）。</translation>
    </message>
    <message>
        <source>With ssh://: where the engine listens on the server, unix:PATH or tcp:127.0.0.1:PORT (default: the SSH user&apos;s own `tunedeck-engine serve` socket).</source>
        <translation>使用 ssh:// 时：引擎在服务器上的监听地址，unix:PATH 或 tcp:127.0.0.1:PORT（默认为该 SSH 用户自己的 `tunedeck-engine serve` 的套接字）。</translation>
    </message>
    <message>
        <source>With ssh://: the private key to log in with (default: the keys of the ssh-agent).</source>
        <translation>使用 ssh:// 时：用于登录的私钥（默认使用 ssh-agent 中的密钥）。</translation>
    </message>
    <message>
        <source>With ssh://: the known_hosts file (default ~/.ssh/known_hosts).</source>
        <translation>使用 ssh:// 时：known_hosts 文件（默认为 ~/.ssh/known_hosts）。</translation>
    </message>
    <message>
        <source>With ssh://: trust the server&apos;s host key when it is not known yet, and record it. A changed key is refused anyway.</source>
        <translation>使用 ssh:// 时：服务器的主机密钥尚未知时信任并记录它。已变更的密钥仍会被拒绝。</translation>
    </message>
</context>
<context>
    <name>SshTarget</name>
    <message>
        <source>&apos;%1&apos; is not an engine address on the server: write unix:PATH or tcp:HOST:PORT (or nothing, for the default socket)</source>
        <translation>“%1”不是服务器上的引擎地址：请写 unix:PATH 或 tcp:HOST:PORT（留空则使用默认套接字）</translation>
    </message>
    <message>
        <source>the default engine socket</source>
        <translation>引擎的默认套接字</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an SSH address: write ssh://USER@HOST[:PORT]</source>
        <translation>“%1”不是 SSH 地址：请写 ssh://USER@HOST[:PORT]</translation>
    </message>
    <message>
        <source>&apos;%1&apos; names no user: write ssh://USER@HOST[:PORT]</source>
        <translation>“%1”未指定用户：请写 ssh://USER@HOST[:PORT]</translation>
    </message>
    <message>
        <source>unexpected answer to &apos;%1&apos; on the server: %2</source>
        <translation>服务器对“%1”的应答不符合预期：%2</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::AlgorithmOptionsBox</name>
    <message>
        <source>%1 (default)</source>
        <translation>%1（默认）</translation>
    </message>
    <message>
        <source>%1 is written over several lines: edit it in the YAML tab.</source>
        <translation>%1 跨多行书写：请在 YAML 标签页中编辑。</translation>
    </message>
    <message>
        <source>%1 as the file writes it; the engine&apos;s check says whether it applies here.</source>
        <translation>%1 为文件中的写法；引擎的检查会说明它在此是否适用。</translation>
    </message>
    <message>
        <source>%1 as the file sets it; clear it for the default, %2.</source>
        <translation>%1 为文件中的设置；清空即恢复默认值 %2。</translation>
    </message>
    <message>
        <source>%1 is not in the file: the default, %2, applies.</source>
        <translation>文件中没有 %1：使用默认值 %2。</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::AnalysisTabs</name>
    <message>
        <source>No log lines yet. Select a trial to follow its log; without a selection, the experiment&apos;s warnings and the trials&apos; log messages are shown here.</source>
        <translation>暂无日志。选择一个试验以跟踪其日志；未选择时，这里显示实验的警告和各试验的日志消息。</translation>
    </message>
    <message>
        <source>Max workers: %1</source>
        <translation>最大工作节点数：%1</translation>
    </message>
    <message>
        <source>Curves</source>
        <translation>曲线</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>Parallel coordinates</source>
        <translation>平行坐标</translation>
    </message>
    <message>
        <source>Parameter vs metric</source>
        <translation>参数与指标</translation>
    </message>
    <message>
        <source>Study plots</source>
        <translation>研究图表</translation>
    </message>
    <message>
        <source>Importance</source>
        <translation>重要性</translation>
    </message>
    <message>
        <source>PBT lineage</source>
        <translation>PBT 谱系</translation>
    </message>
    <message>
        <source>Nodes and GPUs</source>
        <translation>节点与 GPU</translation>
    </message>
    <message>
        <source>Trial</source>
        <translation>试验</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>by iteration</source>
        <translation>按迭代</translation>
    </message>
    <message>
        <source>by wall time</source>
        <translation>按挂钟时间</translation>
    </message>
    <message>
        <source>Log scale</source>
        <translation>对数刻度</translation>
    </message>
    <message>
        <source>Legend</source>
        <translation>图例</translation>
    </message>
    <message>
        <source>Names the curves shown, in their colours; exported charts carry it</source>
        <translation>以各自的颜色标注所显示的曲线；导出的图表也包含图例</translation>
    </message>
    <message>
        <source>Smoothing</source>
        <translation>平滑</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
    <message>
        <source>iteration</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>Pareto front</source>
        <translation>帕累托前沿</translation>
    </message>
    <message>
        <source>on the front</source>
        <translation>在前沿上</translation>
    </message>
    <message>
        <source>dominated</source>
        <translation>被支配</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::AttachDialog</name>
    <message>
        <source>Unknown host key</source>
        <translation>未知的主机密钥</translation>
    </message>
    <message>
        <source>The host key of %1 is not known.</source>
        <translation>%1 的主机密钥未知。</translation>
    </message>
    <message>
        <source>Its fingerprint is

%1

Compare it with the server&apos;s own (ssh-keygen -lf on its host key) before trusting it. Trusted keys are recorded in known_hosts.</source>
        <translation>其指纹为

%1

信任之前，请将其与服务器自身的指纹核对（在服务器上对其主机密钥运行 ssh-keygen -lf）。受信任的密钥会记录在 known_hosts 中。</translation>
    </message>
    <message>
        <source>Trust this key and connect</source>
        <translation>信任此密钥并连接</translation>
    </message>
    <message>
        <source>an engine on TCP needs its token: give its token file</source>
        <translation>通过 TCP 连接的引擎需要令牌：请指定其令牌文件</translation>
    </message>
    <message>
        <source>cannot read the token file %1: %2</source>
        <translation>无法读取令牌文件 %1：%2</translation>
    </message>
    <message>
        <source>the token file %1 has an empty first line</source>
        <translation>令牌文件 %1 的第一行为空</translation>
    </message>
    <message>
        <source>Attach to a server over SSH</source>
        <translation>通过 SSH 连接到服务器</translation>
    </message>
    <message>
        <source>user@host</source>
        <translation>用户@主机</translation>
    </message>
    <message>
        <source>&amp;Server:</source>
        <translation>服务器(&amp;S)：</translation>
    </message>
    <message>
        <source>&amp;Port:</source>
        <translation>端口(&amp;P)：</translation>
    </message>
    <message>
        <source>Keys of the ssh-&amp;agent</source>
        <translation>ssh-agent 中的密钥(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Key file:</source>
        <translation>密钥文件(&amp;K)：</translation>
    </message>
    <message>
        <source>~/.ssh/id_ed25519</source>
        <translation>~/.ssh/id_ed25519</translation>
    </message>
    <message>
        <source>Browse...</source>
        <translation>浏览...</translation>
    </message>
    <message>
        <source>Private key</source>
        <translation>私钥</translation>
    </message>
    <message>
        <source>Log in with:</source>
        <translation>登录方式：</translation>
    </message>
    <message>
        <source>the default socket of serve ($XDG_RUNTIME_DIR/tunedeck/engine.sock)</source>
        <translation>serve 的默认套接字（$XDG_RUNTIME_DIR/tunedeck/engine.sock）</translation>
    </message>
    <message>
        <source>Where the engine listens on the server: unix:PATH, or tcp:127.0.0.1:PORT with its token. Empty: the SSH user&apos;s own `tunedeck-engine serve`.</source>
        <translation>引擎在服务器上的监听地址：unix:PATH，或 tcp:127.0.0.1:PORT（需提供其令牌）。留空：该 SSH 用户自己的 `tunedeck-engine serve`。</translation>
    </message>
    <message>
        <source>&amp;Engine on the server:</source>
        <translation>服务器上的引擎(&amp;E)：</translation>
    </message>
    <message>
        <source>a local file whose first line is the engine&apos;s token</source>
        <translation>本地文件，其第一行为引擎的令牌</translation>
    </message>
    <message>
        <source>&amp;Token file:</source>
        <translation>令牌文件(&amp;T)：</translation>
    </message>
    <message>
        <source>Known &amp;hosts:</source>
        <translation>已知主机(&amp;H)：</translation>
    </message>
    <message>
        <source>&amp;Attach</source>
        <translation>连接(&amp;C)</translation>
    </message>
    <message>
        <source>Not attached: the server&apos;s host key is not known yet.</source>
        <translation>未连接：服务器的主机密钥尚未知。</translation>
    </message>
    <message>
        <source>%1

Fingerprint: %2</source>
        <translation>%1

指纹：%2</translation>
    </message>
    <message>
        <source>Attached to the engine on %1.</source>
        <translation>已连接到 %1 上的引擎。</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::BestTrial</name>
    <message>
        <source>last result</source>
        <translation>最后结果</translation>
    </message>
    <message>
        <source>best result</source>
        <translation>最佳结果</translation>
    </message>
    <message>
        <source>average of all results</source>
        <translation>全部结果的平均值</translation>
    </message>
    <message>
        <source>average of the last 5</source>
        <translation>最后 5 个的平均值</translation>
    </message>
    <message>
        <source>average of the last 10</source>
        <translation>最后 10 个的平均值</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ClusterAutoscalingBox</name>
    <message>
        <source>Node types and autoscaling</source>
        <translation>节点类型与自动扩缩</translation>
    </message>
    <message>
        <source>Launches waiting to become ready at once: at most 5, or this many times the nodes up</source>
        <translation>同时等待就绪的启动数：最多 5 个，或运行中节点数的这一倍数</translation>
    </message>
    <message>
        <source>A node without trials this long is terminated (never below its type&apos;s min workers)</source>
        <translation>无试验达到此时长的节点将被终止（不会低于其类型的最少工作节点数）</translation>
    </message>
    <message>
        <source>Upscaling speed</source>
        <translation>扩容速度</translation>
    </message>
    <message>
        <source>Idle timeout (minutes)</source>
        <translation>空闲超时（分钟）</translation>
    </message>
    <message>
        <source>tunedeck-worker on the compute nodes</source>
        <translation>计算节点上的 tunedeck-worker</translation>
    </message>
    <message>
        <source>tunedeck-worker, found in PATH</source>
        <translation>tunedeck-worker，在 PATH 中查找</translation>
    </message>
    <message>
        <source>Create</source>
        <translation>创建</translation>
    </message>
    <message>
        <source>Terminate</source>
        <translation>终止</translation>
    </message>
    <message>
        <source>List</source>
        <translation>列出</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Run as /bin/sh -c in the cluster file&apos;s folder; placeholders such as {node}, {id}, {address} and {node_config.KEY} are filled in</source>
        <translation>在集群文件所在文件夹中以 /bin/sh -c 运行；{node}、{id}、{address} 和 {node_config.KEY} 等占位符会被替换</translation>
    </message>
    <message>
        <source>Node type</source>
        <translation>节点类型</translation>
    </message>
    <message>
        <source>CPUs</source>
        <translation>CPU 数</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>Min workers</source>
        <translation>最少工作节点</translation>
    </message>
    <message>
        <source>Max workers</source>
        <translation>最多工作节点</translation>
    </message>
    <message>
        <source>node_config</source>
        <translation>node_config</translation>
    </message>
    <message>
        <source>Empty: the cluster&apos;s max workers</source>
        <translation>留空：使用集群的最多工作节点数</translation>
    </message>
    <message>
        <source>A flow mapping: {partition: gpu, mem: 16G}</source>
        <translation>流式映射：{partition: gpu, mem: 16G}</translation>
    </message>
    <message>
        <source>Add a node type</source>
        <translation>添加节点类型</translation>
    </message>
    <message>
        <source>Remove the node type</source>
        <translation>删除节点类型</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ClusterCommandRunner</name>
    <message>
        <source>Cannot start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <source>cluster %1 cancelled.</source>
        <translation>cluster %1 已取消。</translation>
    </message>
    <message>
        <source>cluster %1 ended abnormally (the engine crashed).</source>
        <translation>cluster %1 异常结束（引擎崩溃了）。</translation>
    </message>
    <message>
        <source>cluster %1 succeeded.</source>
        <translation>cluster %1 已成功完成。</translation>
    </message>
    <message>
        <source>cluster %1 failed (exit status %2).</source>
        <translation>cluster %1 失败（退出状态 %2）。</translation>
    </message>
    <message>
        <source>Use Test connection to see an unknown host key and accept it.</source>
        <translation>请使用“测试连接”查看未知的主机密钥并接受它。</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ClusterConnectionCheck</name>
    <message numerus="yes">
        <source>%1, %n CPU(s)</source>
        <translation>
            <numerusform>%1，%n 个 CPU</numerusform>
        </translation>
    </message>
    <message>
        <source>cannot create folder %1</source>
        <translation>无法创建文件夹 %1</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>no answer to `%1` within %2 s</source>
        <translation>`%1` 在 %2 秒内没有应答</translation>
    </message>
    <message>
        <source>`%1` failed (exit status %2)</source>
        <translation>`%1` 失败（退出状态 %2）</translation>
    </message>
    <message>
        <source>The host key of %1 is not known yet: it presents %2. Compare it with the host&apos;s own (ssh-keygen -lf on its public host key), then Accept it to add it to %3.</source>
        <translation>%1 的主机密钥尚未知：它出示的是 %2。请将其与该主机自身的密钥核对（在主机上对其公开主机密钥运行 ssh-keygen -lf），然后点击“接受”将其添加到 %3。</translation>
    </message>
    <message>
        <source>Refused: the host key has changed. %1</source>
        <translation>已拒绝：主机密钥已变更。%1</translation>
    </message>
    <message>
        <source>The login was refused: %1</source>
        <translation>登录被拒绝：%1</translation>
    </message>
    <message>
        <source>Unreachable: %1</source>
        <translation>无法访问：%1</translation>
    </message>
    <message>
        <source>Refused: the host now presents the key %1, not %2 that you accepted. Nothing was written to %3.</source>
        <translation>已拒绝：该主机现在出示的密钥是 %1，而不是您接受的 %2。未向 %3 写入任何内容。</translation>
    </message>
    <message>
        <source>The host key %1 cannot be added to %2: %3</source>
        <translation>无法将主机密钥 %1 添加到 %2：%3</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ClusterConnectionView</name>
    <message>
        <source>connecting…</source>
        <translation>正在连接…</translation>
    </message>
    <message>
        <source>reachable</source>
        <translation>可访问</translation>
    </message>
    <message>
        <source>unknown host key</source>
        <translation>主机密钥未知</translation>
    </message>
    <message>
        <source>host key changed: refused</source>
        <translation>主机密钥已变更：已拒绝</translation>
    </message>
    <message>
        <source>login refused</source>
        <translation>登录被拒绝</translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation>无法访问</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Login</source>
        <translation>登录</translation>
    </message>
    <message>
        <source>Host key</source>
        <translation>主机密钥</translation>
    </message>
    <message>
        <source>Machine</source>
        <translation>机器</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source> (accepted)</source>
        <translation>（已接受）</translation>
    </message>
    <message>
        <source>Accept</source>
        <translation>接受</translation>
    </message>
    <message>
        <source>Trust %1 for %2 and add it to known_hosts</source>
        <translation>信任 %2 的 %1，并将其添加到 known_hosts</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ClusterEditor</name>
    <message>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <source>Log in to every node with this file&apos;s auth, as it is now</source>
        <translation>使用此文件当前的登录设置（auth）登录每个节点</translation>
    </message>
    <message>
        <source>Up</source>
        <translation>启动</translation>
    </message>
    <message>
        <source>Save, then set up every node: the agent, file mounts, setup commands</source>
        <translation>保存，然后部署每个节点：代理程序、文件挂载、部署命令</translation>
    </message>
    <message>
        <source>Down</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Save, then stop the agents and trials on every node</source>
        <translation>保存，然后停止每个节点上的代理程序和试验</translation>
    </message>
    <message>
        <source>Untitled cluster</source>
        <translation>未命名集群</translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>The cluster has no file yet: save it as one.</source>
        <translation>该集群还没有文件：请将其保存为文件。</translation>
    </message>
    <message>
        <source>The YAML text does not parse (line %1: %2). Fix it in the YAML tab to use the form.</source>
        <translation>YAML 文本无法解析（第 %1 行：%2）。请先在 YAML 标签页中修正，才能使用表单。</translation>
    </message>
    <message numerus="yes">
        <source>%n warning(s).</source>
        <translation>
            <numerusform>%n 条警告。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s) to fix before the cluster can be used.</source>
        <translation>
            <numerusform>还有 %n 个问题需要修正才能使用该集群。</numerusform>
        </translation>
    </message>
    <message>
        <source>Line %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
    <message>
        <source>Fix the problems first: the nodes cannot be reached from a cluster file that does not load.</source>
        <translation>请先修正问题：集群文件无法加载时，无法连接各节点。</translation>
    </message>
    <message>
        <source>Provider local: trials run on this machine; there is nothing to connect to.</source>
        <translation>提供方为 local：试验在本机上运行，没有需要连接的节点。</translation>
    </message>
    <message>
        <source>Cluster %1</source>
        <translation>集群 %1</translation>
    </message>
    <message>
        <source>Open cluster file</source>
        <translation>打开集群文件</translation>
    </message>
    <message>
        <source>&amp;Cluster</source>
        <translation>集群(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Test connection</source>
        <translation>测试连接(&amp;T)</translation>
    </message>
    <message>
        <source>Ctrl+T</source>
        <translation>Ctrl+T</translation>
    </message>
    <message>
        <source>&amp;Up</source>
        <translation>启动(&amp;P)</translation>
    </message>
    <message>
        <source>Ctrl+U</source>
        <translation>Ctrl+U</translation>
    </message>
    <message>
        <source>&amp;Down</source>
        <translation>关闭(&amp;D)</translation>
    </message>
    <message>
        <source>Tunedeck cluster</source>
        <translation>Tunedeck 集群</translation>
    </message>
    <message>
        <source>Provider %1: nodes are made as trials wait; there is none to connect to yet.</source>
        <translation>提供方为 %1：节点在试验等待时才创建，目前还没有可连接的节点。</translation>
    </message>
    <message>
        <source>Valid: %1</source>
        <translation>有效：%1</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ClusterForm</name>
    <message>
        <source>%1 — not a known value</source>
        <translation>%1 — 不是已知的值</translation>
    </message>
    <message>
        <source>Add a row</source>
        <translation>添加一行</translation>
    </message>
    <message>
        <source>Remove the row</source>
        <translation>删除该行</translation>
    </message>
    <message>
        <source>Move the row up</source>
        <translation>上移该行</translation>
    </message>
    <message>
        <source>Move the row down</source>
        <translation>下移该行</translation>
    </message>
    <message>
        <source>Choose a file</source>
        <translation>选择文件</translation>
    </message>
    <message>
        <source>Choose</source>
        <translation>选择</translation>
    </message>
    <message>
        <source>ssh — the nodes below, reached over SSH</source>
        <translation>ssh — 下面列出的节点，通过 SSH 访问</translation>
    </message>
    <message>
        <source>local — this machine only</source>
        <translation>local — 仅本机</translation>
    </message>
    <message>
        <source>copy — checkpoints travel to this machine over SFTP</source>
        <translation>copy — 检查点通过 SFTP 传到本机</translation>
    </message>
    <message>
        <source>shared — every node sees the experiment folder (NFS)</source>
        <translation>shared — 每个节点都能访问实验文件夹（NFS）</translation>
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
        <translation>列出的全部工作节点</translation>
    </message>
    <message>
        <source>what each node has</source>
        <translation>各节点自身的数量</translation>
    </message>
    <message>
        <source>A node whose agent is silent this long is lost; its trials fail over.</source>
        <translation>代理程序静默达到此时长的节点视为丢失，其上的试验将转移到其他节点。</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>names the cluster&apos;s folder on every node</source>
        <translation>也用作集群在每个节点上的文件夹名</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>提供方</translation>
    </message>
    <message>
        <source>Storage</source>
        <translation>存储</translation>
    </message>
    <message>
        <source>Node timeout (s)</source>
        <translation>节点超时（秒）</translation>
    </message>
    <message>
        <source>Folder on the nodes</source>
        <translation>节点上的文件夹</translation>
    </message>
    <message>
        <source>to</source>
        <translation>至</translation>
    </message>
    <message>
        <source>Workers</source>
        <translation>工作节点</translation>
    </message>
    <message>
        <source>CPUs</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Every node offers</source>
        <translation>每个节点提供</translation>
    </message>
    <message>
        <source>Login (auth)</source>
        <translation>登录（auth）</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>the same on every node</source>
        <translation>所有节点相同</translation>
    </message>
    <message>
        <source>Private key</source>
        <translation>私钥</translation>
    </message>
    <message>
        <source>keys of ssh-agent</source>
        <translation>ssh-agent 中的密钥</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>端口</translation>
    </message>
    <message>
        <source>known_hosts</source>
        <translation>known_hosts</translation>
    </message>
    <message>
        <source>Relative paths start from the cluster file&apos;s folder.</source>
        <translation>相对路径以集群文件所在的文件夹为起点。</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>Empty: the port of Login</source>
        <translation>留空：使用“登录”中的端口</translation>
    </message>
    <message>
        <source>Empty: what every node offers, else what the node has</source>
        <translation>留空：使用“每个节点提供”的值，未设置时使用该节点自身的数量</translation>
    </message>
    <message>
        <source>Add a worker node</source>
        <translation>添加工作节点</translation>
    </message>
    <message>
        <source>Remove the worker node</source>
        <translation>删除该工作节点</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>The engine runs on this machine; every node listed, the head first, runs trials.</source>
        <translation>引擎在本机上运行；列出的每个节点（头节点在前）都运行试验。</translation>
    </message>
    <message>
        <source>Initialization</source>
        <translation>初始化</translation>
    </message>
    <message>
        <source>Shell commands run first on every node</source>
        <translation>最先在每个节点上运行的 Shell 命令</translation>
    </message>
    <message>
        <source>Setup</source>
        <translation>部署</translation>
    </message>
    <message>
        <source>Shell commands run on every node after the file mounts are copied</source>
        <translation>文件挂载复制完成后在每个节点上运行的 Shell 命令</translation>
    </message>
    <message>
        <source>Worker setup</source>
        <translation>工作节点部署</translation>
    </message>
    <message>
        <source>Shell commands run after the setup on every node but the head</source>
        <translation>部署完成后在除头节点外的每个节点上运行的 Shell 命令</translation>
    </message>
    <message>
        <source>Not copied</source>
        <translation>不复制</translation>
    </message>
    <message>
        <source>Patterns of paths in the file mounts that are not copied</source>
        <translation>文件挂载中不复制的路径模式</translation>
    </message>
    <message>
        <source>Commands</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>On the node</source>
        <translation>节点上</translation>
    </message>
    <message>
        <source>From this machine</source>
        <translation>来自本机</translation>
    </message>
    <message>
        <source>Add a file mount</source>
        <translation>添加文件挂载</translation>
    </message>
    <message>
        <source>Remove the file mount</source>
        <translation>删除该文件挂载</translation>
    </message>
    <message>
        <source>File mounts</source>
        <translation>文件挂载</translation>
    </message>
    <message>
        <source>Copied to every node before the setup commands; local paths start from the cluster file&apos;s folder.</source>
        <translation>在部署命令之前复制到每个节点；本地路径以集群文件所在的文件夹为起点。</translation>
    </message>
    <message>
        <source>head</source>
        <translation>头节点</translation>
    </message>
    <message>
        <source>worker</source>
        <translation>工作节点</translation>
    </message>
    <message>
        <source>provider.head_ip is not written yet</source>
        <translation>尚未填写 provider.head_ip</translation>
    </message>
    <message>
        <source>slurm — allocations the autoscaler asks Slurm for</source>
        <translation>slurm — 自动扩缩器向 Slurm 申请的资源分配</translation>
    </message>
    <message>
        <source>command — nodes your own commands make (clouds, Kubernetes)</source>
        <translation>command — 由您自己的命令创建的节点（云、Kubernetes）</translation>
    </message>
    <message>
        <source>the node types&apos; max workers added up</source>
        <translation>各节点类型最多工作节点数之和</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ClusterOutputPane</name>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>正在运行…</translation>
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
        <translation>等高线图需要两个参数。</translation>
    </message>
    <message>
        <source>Pick two different parameters.</source>
        <translation>请选择两个不同的参数。</translation>
    </message>
    <message>
        <source>No trial has reported “%1” yet.</source>
        <translation>尚无试验报告“%1”。</translation>
    </message>
    <message>
        <source>No trial has both parameters and a value.</source>
        <translation>没有同时具有这两个参数和数值的试验。</translation>
    </message>
    <message numerus="yes">
        <source>%n trial(s) drawn</source>
        <translation>
            <numerusform>已绘制 %n 个试验</numerusform>
        </translation>
    </message>
    <message>
        <source>best</source>
        <translation>最佳</translation>
    </message>
    <message>
        <source>worst</source>
        <translation>最差</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::CurveMetricPicker</name>
    <message>
        <source>The metric the curves show. The bold row, the best trial&apos;s thick curve and the table&apos;s objective columns stay the experiment&apos;s objective.</source>
        <translation>曲线显示的指标。加粗的行、最佳试验的粗曲线和表格中的目标列仍按实验的目标。</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>%1 (objective)</source>
        <translation>%1（目标）</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::EdfView</name>
    <message>
        <source>Share of trials with a value at or below each value</source>
        <translation>数值不超过各值的试验比例</translation>
    </message>
    <message>
        <source>No experiment shown.</source>
        <translation>未显示实验。</translation>
    </message>
    <message>
        <source>No trial has reported “%1” yet.</source>
        <translation>尚无试验报告“%1”。</translation>
    </message>
    <message>
        <source>share of trials</source>
        <translation>试验比例</translation>
    </message>
    <message numerus="yes">
        <source>%n trial(s)</source>
        <translation>
            <numerusform>%n 个试验</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tunedeck::app::EditorWindow</name>
    <message>
        <source>Untitled</source>
        <translation>未命名</translation>
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
        <translation>另存为</translation>
    </message>
    <message>
        <source>YAML files (*.yaml *.yml)</source>
        <translation>YAML 文件 (*.yaml *.yml)</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>the untitled file</source>
        <translation>未命名文件</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>Save the changes to %1 before closing?</source>
        <translation>关闭前要保存对 %1 的更改吗？</translation>
    </message>
    <message>
        <source>Your changes are lost if you do not save them.</source>
        <translation>如果不保存，您的更改将会丢失。</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>放弃</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::EngineConnection</name>
    <message>
        <source>Not attached to an engine</source>
        <translation>未连接到引擎</translation>
    </message>
    <message>
        <source>Engine %1, results in %2</source>
        <translation>引擎 %1，结果位于 %2</translation>
    </message>
    <message>
        <source>Engine %1 on %2, results in %3 there</source>
        <translation>%2 上的引擎 %1，结果位于那里的 %3</translation>
    </message>
    <message>
        <source>Engine connection lost (%1); reconnecting...</source>
        <translation>与引擎的连接已断开（%1）；正在重新连接...</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ExperimentEditor</name>
    <message>
        <source>Search space</source>
        <translation>搜索空间</translation>
    </message>
    <message>
        <source>Untitled experiment</source>
        <translation>未命名实验</translation>
    </message>
    <message>
        <source>The experiment has no file yet: save it as one.</source>
        <translation>该实验还没有文件：请将其保存为文件。</translation>
    </message>
    <message>
        <source>The YAML text does not parse (line %1: %2). Fix it in the YAML tab to use the form.</source>
        <translation>YAML 文本无法解析（第 %1 行：%2）。请先在 YAML 标签页中修正，才能使用表单。</translation>
    </message>
    <message>
        <source>No engine connected: the experiment is checked once the app is attached to one.</source>
        <translation>未连接引擎：应用连接到引擎后才会检查实验。</translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation>正在检查…</translation>
    </message>
    <message>
        <source>The engine could not check the experiment: %1</source>
        <translation>引擎无法检查该实验：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n warning(s).</source>
        <translation>
            <numerusform>%n 条警告。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s) to fix before it can run.</source>
        <translation>
            <numerusform>还有 %n 个问题需要修正才能运行。</numerusform>
        </translation>
    </message>
    <message>
        <source>Line %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
    <message>
        <source>%1, line %2: %3</source>
        <translation>%1，第 %2 行：%3</translation>
    </message>
    <message>
        <source>The first configs the run would try, with this seed and searcher</source>
        <translation>使用此随机种子和搜索算法时，运行会最先尝试的配置</translation>
    </message>
    <message>
        <source>Sampled configs (the first the run would try):</source>
        <translation>采样的配置（运行会最先尝试的几个）：</translation>
    </message>
    <message>
        <source>Not started: no engine is connected.</source>
        <translation>未启动：没有连接引擎。</translation>
    </message>
    <message>
        <source>Not started: %1</source>
        <translation>未启动：%1</translation>
    </message>
    <message>
        <source>Not started: the engine could not check the experiment: %1</source>
        <translation>未启动：引擎无法检查该实验：%1</translation>
    </message>
    <message>
        <source>Not started: fix the problems listed below first.</source>
        <translation>未启动：请先修复下面列出的问题。</translation>
    </message>
    <message>
        <source>Valid: %1, search %2, scheduler %3, %4.</source>
        <translation>有效：%1，搜索算法 %2，调度器 %3，%4。</translation>
    </message>
    <message numerus="yes">
        <source>%n parameter(s)</source>
        <translation>
            <numerusform>%n 个参数</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n trial(s)</source>
        <translation>
            <numerusform>%n 个试验</numerusform>
        </translation>
    </message>
    <message>
        <source>unbounded trials</source>
        <translation>试验数不限</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ExperimentEditorWindow</name>
    <message>
        <source>Tunedeck editor</source>
        <translation>Tunedeck 编辑器</translation>
    </message>
    <message>
        <source>&amp;Experiment</source>
        <translation>实验(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
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
        <translation>实验及其结果文件夹的名称</translation>
    </message>
    <message>
        <source>the experiment file&apos;s folder</source>
        <translation>实验文件所在的文件夹</translation>
    </message>
    <message>
        <source>e.g. loss; several: loss, latency</source>
        <translation>例如 loss；多个时：loss, latency</translation>
    </message>
    <message>
        <source>min or max</source>
        <translation>min 或 max</translation>
    </message>
    <message>
        <source>as many as resources allow</source>
        <translation>资源允许的最大数量</translation>
    </message>
    <message>
        <source>only when the trial saves on its own</source>
        <translation>仅在试验自行保存时</translation>
    </message>
    <message>
        <source>unlimited retries</source>
        <translation>不限重试次数</translation>
    </message>
    <message>
        <source>Experiment</source>
        <translation>实验</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>Working folder</source>
        <translation>工作目录</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>采样数</translation>
    </message>
    <message>
        <source>Trials at once</source>
        <translation>同时运行的试验数</translation>
    </message>
    <message>
        <source>Search and scheduling</source>
        <translation>搜索与调度</translation>
    </message>
    <message>
        <source>Search algorithm</source>
        <translation>搜索算法</translation>
    </message>
    <message>
        <source>Scheduler</source>
        <translation>调度器</translation>
    </message>
    <message>
        <source>Checkpoint every</source>
        <translation>检查点间隔</translation>
    </message>
    <message>
        <source>Retries per trial</source>
        <translation>每个试验的重试次数</translation>
    </message>
    <message>
        <source> iterations</source>
        <translation> 次迭代</translation>
    </message>
    <message>
        <source>One argument per row, passed to the program as it is: no shell splits or expands it. {name} is replaced by that parameter&apos;s value.</source>
        <translation>每行一个命令参数，原样传给程序：不经过 shell 拆分或展开。{name} 会被替换为该超参数的值。</translation>
    </message>
    <message>
        <source>Add an argument</source>
        <translation>添加命令参数</translation>
    </message>
    <message>
        <source>Remove the argument</source>
        <translation>删除该命令参数</translation>
    </message>
    <message>
        <source>Move the argument up</source>
        <translation>上移该命令参数</translation>
    </message>
    <message>
        <source>Move the argument down</source>
        <translation>下移该命令参数</translation>
    </message>
    <message>
        <source>argument</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source> (default)</source>
        <translation>（默认）</translation>
    </message>
    <message>
        <source>%1 — not a known name</source>
        <translation>%1 — 未知名称</translation>
    </message>
    <message>
        <source>Options (default): %1</source>
        <translation>选项（默认值）：%1</translation>
    </message>
    <message>
        <source>Stop when</source>
        <translation>停止条件</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ExperimentList</name>
    <message>
        <source>Experiment</source>
        <translation>实验</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Trials</source>
        <translation>试验数</translation>
    </message>
    <message>
        <source>Best</source>
        <translation>最佳值</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Resumable: Experiment &gt; Resume continues its trials from their latest checkpoints.</source>
        <translation>可继续：实验 &gt; 继续 会从各试验最近的检查点继续运行。</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ExperimentsCompare</name>
    <message>
        <source>%1 (experiment %2)</source>
        <translation>%1（实验 %2）</translation>
    </message>
    <message>
        <source>trial</source>
        <translation>试验</translation>
    </message>
    <message>
        <source>metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>iterations</source>
        <translation>迭代次数</translation>
    </message>
    <message>
        <source>Compare experiments</source>
        <translation>比较实验</translation>
    </message>
    <message>
        <source>Experiment folder</source>
        <translation>实验文件夹</translation>
    </message>
    <message>
        <source>Browse...</source>
        <translation>浏览...</translation>
    </message>
    <message>
        <source>First:</source>
        <translation>第一个：</translation>
    </message>
    <message>
        <source>Second:</source>
        <translation>第二个：</translation>
    </message>
    <message>
        <source>The best trials&apos; curves</source>
        <translation>最佳试验的曲线</translation>
    </message>
    <message>
        <source>Choose two experiment folders.</source>
        <translation>请选择两个实验文件夹。</translation>
    </message>
    <message>
        <source>Reading...</source>
        <translation>正在读取...</translation>
    </message>
    <message>
        <source>iteration</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>value, %1</source>
        <translation>值，%1</translation>
    </message>
    <message>
        <source>Pareto front of one trial</source>
        <translation>帕累托前沿（1 个试验）</translation>
    </message>
    <message>
        <source>Pareto front of %1 trials</source>
        <translation>帕累托前沿（%1 个试验）</translation>
    </message>
    <message>
        <source> and %1 more</source>
        <translation>，另有 %1 个</translation>
    </message>
    <message>
        <source>%1 to %2</source>
        <translation>%1 至 %2</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ImportanceView</name>
    <message>
        <source>Importance</source>
        <translation>重要性</translation>
    </message>
    <message>
        <source>importance (share of impurity decrease)</source>
        <translation>重要性（不纯度减少量占比）</translation>
    </message>
    <message>
        <source>Parameter importance needs at least %1 finished trials with the metric.</source>
        <translation>计算参数重要性至少需要 %1 个带有该指标的已完成试验。</translation>
    </message>
    <message>
        <source>Parameter importance needs at least %1 finished trials with “%2”; %3 so far.</source>
        <translation>计算参数重要性至少需要 %1 个带有“%2”的已完成试验；目前有 %3 个。</translation>
    </message>
    <message>
        <source>No hyperparameter varies between the finished trials.</source>
        <translation>各已完成试验之间没有任何超参数不同。</translation>
    </message>
    <message>
        <source>Computing parameter importance…</source>
        <translation>正在计算参数重要性…</translation>
    </message>
    <message>
        <source>Updating…</source>
        <translation>正在更新…</translation>
    </message>
    <message>
        <source>Hyperparameter importance for “%1”</source>
        <translation>“%1”的超参数重要性</translation>
    </message>
    <message>
        <source>Every finished trial has the same “%1”, %2: no parameter makes a difference to explain.</source>
        <translation>所有已完成的试验的“%1”（%2）都相同：没有可解释的参数差异。</translation>
    </message>
    <message>
        <source>Hyperparameter importance for the Pareto front</source>
        <translation>超参数对帕累托前沿的重要性</translation>
    </message>
    <message>
        <source>Mean decrease in impurity of a random forest (%1 trees) fitted to whether each of %2 finished trials is on the Pareto front of %3, by %4.</source>
        <translation>随机森林（%1 棵树）的平均不纯度减少，拟合目标为 %2 个已完成试验是否在 %3 的帕累托前沿上（按%4）。</translation>
    </message>
    <message>
        <source>Mean decrease in impurity of a random forest (%1 trees) fitted to “%2”, %3, of %4 finished trials.</source>
        <translation>随机森林（%1 棵树）的平均不纯度减少，拟合 %4 个已完成试验的“%2”（%3）。</translation>
    </message>
    <message>
        <source>Every finished trial is on the Pareto front of %1: no parameter makes a difference to explain.</source>
        <translation>所有已完成的试验都在 %1 的帕累托前沿上：没有可解释的参数差异。</translation>
    </message>
    <message>
        <source>No finished trial is on the Pareto front of %1: no parameter makes a difference to explain.</source>
        <translation>没有已完成的试验在 %1 的帕累托前沿上：没有可解释的参数差异。</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::LimitsDialog</name>
    <message>
        <source>Change limits of %1</source>
        <translation>更改 %1 的限制</translation>
    </message>
    <message>
        <source>No limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>More samples make the search propose more trials; fewer than the trials already made are refused. A lower limit stops no running trial: new ones wait until fewer run. Resume keeps the change.</source>
        <translation>增加采样数会让搜索算法提出更多试验；少于已创建试验数的值会被拒绝。降低并发上限不会停止正在运行的试验：新试验会等到运行数低于上限再启动。继续（resume）后仍保留此更改。</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Samples (num_samples)</source>
        <translation>采样数（num_samples）</translation>
    </message>
    <message>
        <source>Trials at once (max_concurrent_trials)</source>
        <translation>同时运行的试验（max_concurrent_trials）</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::LineageView</name>
    <message>
        <source>No PBT exploits in this experiment.</source>
        <translation>此实验中没有 PBT 利用（exploit）步骤。</translation>
    </message>
    <message>
        <source>Trial</source>
        <translation>试验</translation>
    </message>
    <message>
        <source>Iteration</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>Copied from</source>
        <translation>复制自</translation>
    </message>
    <message>
        <source>Hyperparameters changed</source>
        <translation>更改的超参数</translation>
    </message>
    <message>
        <source>exploits in its lineage: %1</source>
        <translation>谱系中的利用（exploit）次数：%1</translation>
    </message>
    <message>
        <source>Best %1</source>
        <translation>最佳 %1</translation>
    </message>
    <message>
        <source>%1 at iteration %2</source>
        <translation>%1（第 %2 次迭代）</translation>
    </message>
    <message>
        <source>(same hyperparameters)</source>
        <translation>（超参数相同）</translation>
    </message>
    <message>
        <source>Reason: %1</source>
        <translation>原因：%1</translation>
    </message>
    <message>
        <source>started from scratch</source>
        <translation>从头开始</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::MainWindow</name>
    <message>
        <source>The server has no folder %1: the relative paths of %2 start from its results folder %3</source>
        <translation>服务器上没有文件夹 %1：%2 中的相对路径从服务器的结果文件夹 %3 开始</translation>
    </message>
    <message>
        <source>Change &amp;limits...</source>
        <translation>更改限制(&amp;L)...</translation>
    </message>
    <message>
        <source>Change limits</source>
        <translation>更改限制</translation>
    </message>
    <message>
        <source>Only a running experiment of the attached engine takes new limits. Open one, or resume this one first.</source>
        <translation>只有所连接引擎上正在运行的实验才能更改限制。请打开一个运行中的实验，或先继续此实验。</translation>
    </message>
    <message>
        <source>Engine &amp;queue...</source>
        <translation>引擎队列(&amp;Q)...</translation>
    </message>
    <message>
        <source>%1 (read-only) - Tunedeck</source>
        <translation>%1（只读）- Tunedeck</translation>
    </message>
    <message>
        <source>Tunedeck</source>
        <translation>Tunedeck</translation>
    </message>
    <message>
        <source>Select the trials in the table first.</source>
        <translation>请先在表格中选择试验。</translation>
    </message>
    <message>
        <source>%1 - Tunedeck</source>
        <translation>%1 - Tunedeck</translation>
    </message>
    <message>
        <source>Experiment</source>
        <translation>实验</translation>
    </message>
    <message>
        <source>Experiments</source>
        <translation>实验</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Run experiment file...</source>
        <translation>运行实验文件(&amp;R)...</translation>
    </message>
    <message>
        <source>Ctrl+R</source>
        <translation>Ctrl+R</translation>
    </message>
    <message>
        <source>Run experiment</source>
        <translation>运行实验</translation>
    </message>
    <message>
        <source>Experiment files (*.yaml *.yml)</source>
        <translation>实验文件 (*.yaml *.yml)</translation>
    </message>
    <message>
        <source>&amp;New experiment from template...</source>
        <translation>从模板新建实验(&amp;N)...</translation>
    </message>
    <message>
        <source>&amp;Edit experiment file...</source>
        <translation>编辑实验文件(&amp;E)...</translation>
    </message>
    <message>
        <source>Ctrl+Shift+E</source>
        <translation>Ctrl+Shift+E</translation>
    </message>
    <message>
        <source>&amp;Open experiment folder...</source>
        <translation>打开实验文件夹(&amp;O)...</translation>
    </message>
    <message>
        <source>Compare &amp;two experiments...</source>
        <translation>比较两个实验(&amp;T)...</translation>
    </message>
    <message>
        <source>Ctrl+Shift+K</source>
        <translation>Ctrl+Shift+K</translation>
    </message>
    <message>
        <source>Export &amp;best config...</source>
        <translation>导出最佳配置(&amp;B)...</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <source>&amp;Copy best config as YAML</source>
        <translation>将最佳配置复制为 YAML(&amp;C)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+C</source>
        <translation>Ctrl+Shift+C</translation>
    </message>
    <message>
        <source>Copy best config as command-line &amp;flags</source>
        <translation>将最佳配置复制为命令行参数(&amp;F)</translation>
    </message>
    <message>
        <source>Export all results as CSV...</source>
        <translation>将全部结果导出为 CSV...</translation>
    </message>
    <message>
        <source>Export chart as PNG or SVG...</source>
        <translation>将图表导出为 PNG 或 SVG...</translation>
    </message>
    <message>
        <source>Ctrl+Shift+S</source>
        <translation>Ctrl+Shift+S</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Experiment</source>
        <translation>实验(&amp;E)</translation>
    </message>
    <message>
        <source>Refresh list</source>
        <translation>刷新列表</translation>
    </message>
    <message>
        <source>&amp;Pause (resume later)</source>
        <translation>暂停（稍后可继续）(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation>继续(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Stop for good</source>
        <translation>永久终止(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Trial</source>
        <translation>试验(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Stop selected trials</source>
        <translation>停止所选试验(&amp;S)</translation>
    </message>
    <message>
        <source>Ctrl+T</source>
        <translation>Ctrl+T</translation>
    </message>
    <message>
        <source>&amp;Pause selected trials</source>
        <translation>暂停所选试验(&amp;P)</translation>
    </message>
    <message>
        <source>Ctrl+P</source>
        <translation>Ctrl+P</translation>
    </message>
    <message>
        <source>&amp;Resume selected trials</source>
        <translation>继续所选试验(&amp;R)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+P</source>
        <translation>Ctrl+Shift+P</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Start page</source>
        <translation>起始页(&amp;S)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+H</source>
        <translation>Ctrl+Shift+H</translation>
    </message>
    <message>
        <source>&amp;Monitor</source>
        <translation>监控(&amp;M)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+M</source>
        <translation>Ctrl+Shift+M</translation>
    </message>
    <message>
        <source>Reset chart zoom</source>
        <translation>重置图表缩放</translation>
    </message>
    <message>
        <source>Ctrl+0</source>
        <translation>Ctrl+0</translation>
    </message>
    <message>
        <source>Find trials</source>
        <translation>查找试验</translation>
    </message>
    <message>
        <source>Trial</source>
        <translation>试验</translation>
    </message>
    <message>
        <source>Stop experiment</source>
        <translation>终止实验</translation>
    </message>
    <message>
        <source>Best config copied</source>
        <translation>已复制最佳配置</translation>
    </message>
    <message>
        <source>Export best config</source>
        <translation>导出最佳配置</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Export results</source>
        <translation>导出结果</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg)</source>
        <translation>PNG 图像 (*.png);;SVG 矢量图 (*.svg)</translation>
    </message>
    <message>
        <source>Edit experiment</source>
        <translation>编辑实验</translation>
    </message>
    <message>
        <source>Open experiment</source>
        <translation>打开实验</translation>
    </message>
    <message>
        <source>Language changed</source>
        <translation>语言已更改</translation>
    </message>
    <message>
        <source>Restart Tunedeck now to show every window in the new language?</source>
        <translation>现在重启 Tunedeck，让所有窗口都以新语言显示吗？</translation>
    </message>
    <message>
        <source>&amp;Attach to a server over SSH...</source>
        <translation>通过 SSH 连接到服务器(&amp;A)...</translation>
    </message>
    <message>
        <source>Ctrl+Shift+A</source>
        <translation>Ctrl+Shift+A</translation>
    </message>
    <message>
        <source>Edit c&amp;luster file...</source>
        <translation>编辑集群文件(&amp;L)...</translation>
    </message>
    <message>
        <source>Ctrl+Shift+L</source>
        <translation>Ctrl+Shift+L</translation>
    </message>
    <message>
        <source>Cluster file</source>
        <translation>集群文件</translation>
    </message>
    <message>
        <source>Cluster files (*.yaml *.yml)</source>
        <translation>集群文件 (*.yaml *.yml)</translation>
    </message>
    <message>
        <source>&amp;Settings...</source>
        <translation>设置(&amp;S)...</translation>
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
        <translation>命令行参数 (*.txt)</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>Experiments are running</source>
        <translation>实验正在运行</translation>
    </message>
    <message>
        <source>Pause and quit</source>
        <translation>暂停并退出</translation>
    </message>
    <message>
        <source>Leave running and quit</source>
        <translation>保持运行并退出</translation>
    </message>
    <message>
        <source>Pausing %1...</source>
        <translation>正在暂停 %1...</translation>
    </message>
    <message>
        <source>The engine did not answer the pause orders; the experiments may still run.</source>
        <translation>引擎没有响应暂停指令；实验可能仍在运行。</translation>
    </message>
    <message>
        <source>Not paused, still running:
%1</source>
        <translation>未暂停，仍在运行：
%1</translation>
    </message>
    <message>
        <source>Running on the engine of this machine: %1.</source>
        <translation>本机引擎上正在运行：%1。</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Pause and quit&lt;/b&gt;: each trial saves a checkpoint and stops; Experiment &amp;gt; Resume (or &lt;tt&gt;tunedeck-engine resume&lt;/tt&gt;) continues them later.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Leave running&lt;/b&gt;: the engine goes on without the window; open Tunedeck again to watch them.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;暂停并退出&lt;/b&gt;：每个试验保存检查点后停止；之后可通过“实验 &amp;gt; 继续”（或 &lt;tt&gt;tunedeck-engine resume&lt;/tt&gt;）继续。&lt;/p&gt;&lt;p&gt;&lt;b&gt;保持运行&lt;/b&gt;：引擎在窗口关闭后继续运行；再次打开 Tunedeck 即可查看。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>&amp;Clone into editor...</source>
        <translation>克隆到编辑器(&amp;C)...</translation>
    </message>
    <message>
        <source>&amp;Delete experiment folder...</source>
        <translation>删除实验文件夹(&amp;D)...</translation>
    </message>
    <message>
        <source>Clone experiment</source>
        <translation>克隆实验</translation>
    </message>
    <message>
        <source>Open an experiment first.</source>
        <translation>请先打开一个实验。</translation>
    </message>
    <message>
        <source>The experiment file of %1 cannot be read here: %2</source>
        <translation>无法在此读取 %1 的实验文件：%2</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Cloned %1 into %2: edit it, then Run.</source>
        <translation>已将 %1 克隆到 %2：编辑后运行。</translation>
    </message>
    <message>
        <source>Delete experiment</source>
        <translation>删除实验</translation>
    </message>
    <message>
        <source>%1 is still running. Stop it first (Experiment &gt; Stop for good), then delete its folder.</source>
        <translation>%1 仍在运行。请先停止它（实验 &gt; 永久终止），再删除其文件夹。</translation>
    </message>
    <message>
        <source>%1 has ended, and the engine is still closing its files. Try again in a moment.</source>
        <translation>%1 已结束，但引擎仍在关闭其文件。请稍后再试。</translation>
    </message>
    <message>
        <source>Delete the folder of %1 with its %2 trials&apos; results, checkpoints and logs?

%3

This cannot be undone.</source>
        <translation>删除 %1 的文件夹及其 %2 个试验的结果、检查点和日志？

%3

此操作无法撤销。</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Some files of %1 could not be deleted.</source>
        <translation>%1 的部分文件无法删除。</translation>
    </message>
    <message>
        <source>Deleted %1</source>
        <translation>已删除 %1</translation>
    </message>
    <message>
        <source>Edit &amp;note...</source>
        <translation>编辑备注(&amp;N)...</translation>
    </message>
    <message>
        <source>Ctrl+Shift+N</source>
        <translation>Ctrl+Shift+N</translation>
    </message>
    <message>
        <source>Edit note</source>
        <translation>编辑备注</translation>
    </message>
    <message>
        <source>This experiment is open read-only: notes are kept by the engine that has its folder. Open it from the engine&apos;s list to add one.</source>
        <translation>此实验以只读方式打开:备注由拥有其文件夹的引擎保存。请从引擎的列表中打开它以添加备注。</translation>
    </message>
    <message>
        <source>Select one trial in the table to write its note.</source>
        <translation>请在表格中选择一个试验来编写其备注。</translation>
    </message>
    <message>
        <source>Note on %1</source>
        <translation>%1 的备注</translation>
    </message>
    <message>
        <source>What you want to remember about %1 (empty removes the note):</source>
        <translation>关于 %1 想记下的内容(留空则删除备注):</translation>
    </message>
    <message>
        <source>Note not kept</source>
        <translation>备注未保存</translation>
    </message>
    <message>
        <source>Stop trial</source>
        <translation>停止试验</translation>
    </message>
    <message>
        <source>Stop trial %1 for good?</source>
        <translation>永久停止试验 %1？</translation>
    </message>
    <message>
        <source>Stop these %1 trials for good: %2?</source>
        <translation>永久停止这 %1 个试验：%2？</translation>
    </message>
    <message>
        <source>A running trial ends at its next report and a waiting one never starts; they read &quot;stopped by the user&quot; and are not resumed. Their results and checkpoints are kept. Trial &gt; Pause stops one so that it can be resumed.</source>
        <translation>运行中的试验在下次报告时结束，等待中的试验不会启动；它们显示为“被用户停止”，且不会继续。结果和检查点会保留。试验 &gt; 暂停 可停止试验并在之后继续。</translation>
    </message>
    <message>
        <source>Stop %1 for good? Running trials stop at their next report; waiting ones never start. Every trial not yet ended reads &quot;stopped by the user&quot;, and the experiment cannot be resumed. Experiment &gt; Pause stops it so that it can be.</source>
        <translation>永久停止 %1？运行中的试验在下次报告时停止，等待中的试验不会启动。所有尚未结束的试验显示为“被用户停止”，实验无法继续。实验 &gt; 暂停 可停止实验并在之后继续。</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::MessageHistory</name>
    <message>
        <source>Messages...</source>
        <translation>消息...</translation>
    </message>
    <message>
        <source>Ctrl+L</source>
        <translation>Ctrl+L</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>No message yet.</source>
        <translation>还没有消息。</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::MetricChart</name>
    <message>
        <source>No trial reported %1</source>
        <translation>没有试验报告 %1</translation>
    </message>
    <message>
        <source>Waiting for the first result of %1</source>
        <translation>正在等待 %1 的第一个结果</translation>
    </message>
    <message>
        <source>iteration</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>Select rows in the table to name their curves here; up to %1 get a colour each.</source>
        <translation>在表格中选择行，即可在此标注其曲线；最多 %1 个试验各有一种颜色。</translation>
    </message>
    <message>
        <source>%1 (best)</source>
        <translation>%1（最佳）</translation>
    </message>
    <message numerus="yes">
        <source>%n other trial(s)</source>
        <translation>
            <numerusform>另外 %n 个试验</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>另有 %n 个</numerusform>
        </translation>
    </message>
    <message>
        <source>iteration %1</source>
        <translation>迭代 %1</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 = %2 (smoothed %3)</source>
        <translation>%1 = %2（平滑后 %3）</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::NodeUsageView</name>
    <message>
        <source>No node samples yet. The engine records them every gpu_sample_s seconds while an experiment runs.</source>
        <translation>尚无节点采样数据。实验运行期间，引擎每 gpu_sample_s 秒记录一次。</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Card</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Utilisation</source>
        <translation>利用率</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Power</source>
        <translation>功率</translation>
    </message>
    <message>
        <source>Trials on it</source>
        <translation>其上的试验</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>lost</source>
        <translation>已丢失</translation>
    </message>
    <message>
        <source>time</source>
        <translation>时间</translation>
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
        <translation>利用率（%）</translation>
    </message>
    <message>
        <source>Memory used (%)</source>
        <translation>内存占用（%）</translation>
    </message>
    <message>
        <source> (MPS)</source>
        <translation>（MPS）</translation>
    </message>
    <message>
        <source> (time slicing: MPS did not start)</source>
        <translation>（时间片轮转：MPS 未能启动）</translation>
    </message>
    <message>
        <source>%1
MPS did not start: %2</source>
        <translation>%1
MPS 未能启动：%2</translation>
    </message>
    <message>
        <source>launching</source>
        <translation>启动中</translation>
    </message>
    <message>
        <source>ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <source>terminating</source>
        <translation>终止中</translation>
    </message>
    <message>
        <source>terminated</source>
        <translation>已终止</translation>
    </message>
    <message>
        <source>Set max workers</source>
        <translation>设置最大工作节点数</translation>
    </message>
    <message>
        <source>From now on the autoscaler keeps at most this many nodes of the type; nodes above a lowered cap go when idle. The cluster file stays as it is.</source>
        <translation>从现在起，自动扩缩器最多保留该类型的这么多节点；超出降低后上限的节点在空闲时释放。集群文件保持不变。</translation>
    </message>
    <message>
        <source>Max workers of</source>
        <translation>最大工作节点数：</translation>
    </message>
    <message>
        <source>did not start</source>
        <translation>未能启动</translation>
    </message>
    <message>
        <source>%1 (%2) ready %3 s after its launch</source>
        <translation>%1（%2）在启动 %3 秒后就绪</translation>
    </message>
    <message>
        <source>%1 lost: %2</source>
        <translation>%1 已丢失：%2</translation>
    </message>
    <message>
        <source>cannot launch a %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <source>%1 (%2) did not start: %3</source>
        <translation>%1（%2）未能启动：%3</translation>
    </message>
    <message>
        <source>The autoscaler&apos;s decisions, newest last</source>
        <translation>自动扩缩器的决策（最新的在最后）</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::OptimizationHistoryView</name>
    <message>
        <source>On the Pareto front</source>
        <translation>在帕累托前沿上</translation>
    </message>
    <message>
        <source>by trial number</source>
        <translation>按试验编号</translation>
    </message>
    <message>
        <source>by time</source>
        <translation>按时间</translation>
    </message>
    <message>
        <source>Each trial&apos;s value and the best so far</source>
        <translation>每个试验的数值与迄今最佳</translation>
    </message>
    <message>
        <source>No experiment shown.</source>
        <translation>未显示实验。</translation>
    </message>
    <message>
        <source>No trial has reported “%1” yet.</source>
        <translation>尚无试验报告“%1”。</translation>
    </message>
    <message>
        <source>seconds since the start</source>
        <translation>自开始以来的秒数</translation>
    </message>
    <message>
        <source>trial number</source>
        <translation>试验编号</translation>
    </message>
    <message numerus="yes">
        <source>%n trial(s) with a value; best so far %1 (%2)</source>
        <translation>
            <numerusform>%n 个试验有数值；迄今最佳 %1（%2）</numerusform>
        </translation>
    </message>
    <message>
        <source>lowest</source>
        <translation>最低</translation>
    </message>
    <message>
        <source>highest</source>
        <translation>最高</translation>
    </message>
    <message>
        <source>Trial value</source>
        <translation>试验数值</translation>
    </message>
    <message>
        <source>Best so far (min)</source>
        <translation>迄今最佳（最小）</translation>
    </message>
    <message>
        <source>Best so far (max)</source>
        <translation>迄今最佳（最大）</translation>
    </message>
    <message numerus="yes">
        <source>%n trial(s) with a value; the first of %1 objectives (their trade-off: the Pareto front tab)</source>
        <translation>
            <numerusform>%n 个 trial 有值；%1 个目标中的第一个（权衡见 Pareto 前沿标签页）</numerusform>
        </translation>
    </message>
    <message>
        <source>Each trial&apos;s value of the first objective, %1</source>
        <translation>每个 trial 在第一个目标上的值：%1</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ParallelCoordinatesView</name>
    <message>
        <source>none yet</source>
        <translation>暂无</translation>
    </message>
    <message>
        <source>%1 (log)</source>
        <translation>%1（对数）</translation>
    </message>
    <message>
        <source>best</source>
        <translation>最佳</translation>
    </message>
    <message>
        <source>worst</source>
        <translation>最差</translation>
    </message>
    <message>
        <source>metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>%1, %2: %3</source>
        <translation>%1，%2：%3</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
    <message>
        <source>Pareto front</source>
        <translation>帕累托前沿</translation>
    </message>
    <message>
        <source>dominated</source>
        <translation>被支配</translation>
    </message>
    <message>
        <source>On the Pareto front</source>
        <translation>在帕累托前沿上</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ParetoFrontView</name>
    <message>
        <source>Objective on x</source>
        <translation>x 轴目标</translation>
    </message>
    <message>
        <source>on y</source>
        <translation>y 轴</translation>
    </message>
    <message>
        <source>No experiment shown.</source>
        <translation>未显示实验。</translation>
    </message>
    <message>
        <source>The Pareto front needs several objectives (metric: [loss, latency_ms] with a mode each); this experiment has one, %1.</source>
        <translation>Pareto 前沿需要多个目标（metric: [loss, latency_ms]，每个目标一个 mode）；本实验只有一个：%1。</translation>
    </message>
    <message>
        <source>No trial has reported every objective (%1) yet.</source>
        <translation>尚无 trial 报告全部目标（%1）。</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n trial(s) on the Pareto front</source>
        <translation>
            <numerusform>%n 个 trial 中 %1 个在 Pareto 前沿上</numerusform>
        </translation>
    </message>
    <message>
        <source>On the Pareto front</source>
        <translation>在 Pareto 前沿上</translation>
    </message>
    <message>
        <source>Dominated</source>
        <translation>被支配</translation>
    </message>
    <message>
        <source>%1, on the Pareto front</source>
        <translation>%1，在 Pareto 前沿上</translation>
    </message>
    <message>
        <source>%1, dominated</source>
        <translation>%1，被支配</translation>
    </message>
    <message>
        <source>%1, %2: %3</source>
        <translation>%1，%2：%3</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::Progress</name>
    <message>
        <source>%1 of %2 trials ended</source>
        <translation>已结束 %1 / %2 个试验</translation>
    </message>
    <message>
        <source>%1 of %2 time budget, %3 trials ended</source>
        <translation>已用时间预算 %1 / %2，已结束 %3 个试验</translation>
    </message>
    <message>
        <source>%1 trials ended</source>
        <translation>已结束 %1 个试验</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::QueueDialog</name>
    <message>
        <source>Engine queue</source>
        <translation>引擎队列</translation>
    </message>
    <message>
        <source>Experiment</source>
        <translation>实验</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>Priority</source>
        <translation>优先级</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Wanted</source>
        <translation>需要</translation>
    </message>
    <message>
        <source>Waits because</source>
        <translation>等待原因</translation>
    </message>
    <message>
        <source>The engine did not answer with its queue: %1</source>
        <translation>引擎未返回其队列：%1</translation>
    </message>
    <message>
        <source>In use: %1 of %2 CPUs, %3 of %4 GPUs</source>
        <translation>已用：%1/%2 个 CPU，%3/%4 个 GPU</translation>
    </message>
    <message>
        <source>Experiments the engine runs on its machine share it by priority, then fairly among equal priorities. May run is how many trials an experiment may run at once now; nothing running is stopped to make room, so Running can be above it for a while.</source>
        <translation>引擎在其机器上运行的实验按优先级共享该机器，同等优先级之间公平分配。“允许运行”是实验当前可同时运行的试验数；不会为腾出空间而停止正在运行的试验，因此“运行中”可能暂时高于它。</translation>
    </message>
    <message>
        <source>May run</source>
        <translation>允许运行</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::RunStatusLine</name>
    <message>
        <source>Not attached to an engine</source>
        <translation>未连接到引擎</translation>
    </message>
    <message>
        <source>%1 running</source>
        <translation>%1 个运行中</translation>
    </message>
    <message>
        <source>%1 pending</source>
        <translation>%1 个等待中</translation>
    </message>
    <message>
        <source>%1 paused</source>
        <translation>%1 个已暂停</translation>
    </message>
    <message>
        <source>%1 done</source>
        <translation>%1 个已完成</translation>
    </message>
    <message>
        <source>%1 stopped early</source>
        <translation>%1 个提前停止</translation>
    </message>
    <message>
        <source>%1 stopped by the user</source>
        <translation>%1 个被用户停止</translation>
    </message>
    <message>
        <source>%1 errored</source>
        <translation>%1 个出错</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::ScatterView</name>
    <message>
        <source>Log x</source>
        <translation>x 轴对数</translation>
    </message>
    <message>
        <source>&amp;Parameter:</source>
        <translation>参数(&amp;P)：</translation>
    </message>
    <message>
        <source>Trials</source>
        <translation>试验</translation>
    </message>
    <message>
        <source>Selected</source>
        <translation>已选</translation>
    </message>
    <message>
        <source>Best</source>
        <translation>最佳试验</translation>
    </message>
    <message>
        <source>No trial has reported “%1” yet.</source>
        <translation>尚无试验报告“%1”。</translation>
    </message>
    <message>
        <source>Trials with “%1”: %2</source>
        <translation>含“%1”的试验：%2</translation>
    </message>
    <message>
        <source>Best by %1 (%2)</source>
        <translation>按%1最佳（%2）</translation>
    </message>
    <message>
        <source>Best by %1</source>
        <translation>按%1最佳</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
    <message>
        <source>%1
%2 = %3
%4, %5 = %6</source>
        <translation>%1
%2 = %3
%4，%5 = %6</translation>
    </message>
    <message>
        <source>On the Pareto front by %1</source>
        <translation>按%1在 Pareto 前沿上</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::SearchSpaceModel</name>
    <message>
        <source>a float in [low, high)</source>
        <translation>[low, high) 中的浮点数</translation>
    </message>
    <message>
        <source>uniform, rounded to a multiple of q</source>
        <translation>uniform，取整到 q 的倍数</translation>
    </message>
    <message>
        <source>a float whose log is uniform; low &gt; 0</source>
        <translation>对数服从均匀分布的浮点数；low &gt; 0</translation>
    </message>
    <message>
        <source>loguniform, rounded to a multiple of q; low &gt; 0</source>
        <translation>loguniform，取整到 q 的倍数；low &gt; 0</translation>
    </message>
    <message>
        <source>an integer in [low, high): high is excluded</source>
        <translation>[low, high) 中的整数：不含 high</translation>
    </message>
    <message>
        <source>a multiple of q in [low, high]: high is included</source>
        <translation>[low, high] 中 q 的倍数：包含 high</translation>
    </message>
    <message>
        <source>an integer in [low, high) drawn on a log scale; low &gt; 0</source>
        <translation>在对数刻度上抽取的 [low, high) 中的整数；low &gt; 0</translation>
    </message>
    <message>
        <source>a float from a normal distribution; sd &gt; 0</source>
        <translation>服从正态分布的浮点数；sd &gt; 0</translation>
    </message>
    <message>
        <source>normal, rounded to a multiple of q</source>
        <translation>normal，取整到 q 的倍数</translation>
    </message>
    <message>
        <source>one of the values, uniformly</source>
        <translation>从各取值中均匀选取一个</translation>
    </message>
    <message>
        <source>every one of the values: all grid parameters&apos; combinations, repeated num_samples times</source>
        <translation>逐一取每个值：所有网格参数的组合，重复 num_samples 次</translation>
    </message>
    <message>
        <source>the same value for every trial</source>
        <translation>每个试验取相同的值</translation>
    </message>
    <message>
        <source>Its options hold parameters of their own: edit it in the YAML tab.</source>
        <translation>其选项中含有自己的参数：请在 YAML 标签页中编辑。</translation>
    </message>
    <message>
        <source>%1 takes no such field</source>
        <translation>%1 没有此字段</translation>
    </message>
    <message>
        <source>Parameter</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Domain</source>
        <translation>取值域</translation>
    </message>
    <message>
        <source>Low</source>
        <translation>下限</translation>
    </message>
    <message>
        <source>High</source>
        <translation>上限</translation>
    </message>
    <message>
        <source>q</source>
        <translation>q</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>均值</translation>
    </message>
    <message>
        <source>SD</source>
        <translation>标准差</translation>
    </message>
    <message>
        <source>Values</source>
        <translation>取值</translation>
    </message>
    <message>
        <source>Log scale</source>
        <translation>对数</translation>
    </message>
    <message>
        <source>When</source>
        <translation>条件</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::SearchSpaceTable</name>
    <message>
        <source>Add parameter</source>
        <translation>添加参数</translation>
    </message>
    <message>
        <source>Remove parameter</source>
        <translation>移除参数</translation>
    </message>
    <message>
        <source>The search space is read from %1: edit that file.</source>
        <translation>搜索空间读取自 %1：请编辑该文件。</translation>
    </message>
    <message numerus="yes">
        <source>No grid parameters: %n config(s) drawn (num_samples).</source>
        <translation>
            <numerusform>无网格参数：抽取 %n 个配置（num_samples）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Grid: %1 = %2 × %3 = %4</source>
        <translation>网格：%1 = %2 × %3 = %4</translation>
    </message>
    <message numerus="yes">
        <source>%n combination(s)</source>
        <translation>
            <numerusform>%n 种组合</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n sample(s)</source>
        <translation>
            <numerusform>%n 次采样</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n trial(s)</source>
        <translation>
            <numerusform>%n 个试验</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tunedeck::app::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>System language (%1)</source>
        <translation>系统语言（%1）</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>Start a local engine when none is running</source>
        <translation>没有引擎运行时启动本地引擎</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>语言：</translation>
    </message>
    <message>
        <source>Colours:</source>
        <translation>配色：</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::SliceView</name>
    <message>
        <source>&amp;Parameter:</source>
        <translation>参数(&amp;P)：</translation>
    </message>
    <message>
        <source>All that vary</source>
        <translation>所有变化的参数</translation>
    </message>
    <message>
        <source>No experiment shown.</source>
        <translation>未显示实验。</translation>
    </message>
    <message>
        <source>No trial has reported “%1” yet.</source>
        <translation>尚无试验报告“%1”。</translation>
    </message>
    <message>
        <source>No parameter varies between the trials.</source>
        <translation>各试验之间没有变化的参数。</translation>
    </message>
    <message numerus="yes">
        <source>%n trial(s) with a value</source>
        <translation>
            <numerusform>%n 个试验有数值</numerusform>
        </translation>
    </message>
    <message>
        <source>colour: trial number, first</source>
        <translation>颜色：试验编号，最早</translation>
    </message>
    <message>
        <source>last</source>
        <translation>最晚</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::StartPage</name>
    <message>
        <source>%1 (cluster file)</source>
        <translation>%1（集群文件）</translation>
    </message>
    <message>
        <source>&lt;h2&gt;Tunedeck&lt;/h2&gt;Start from a template, open a past experiment or attach to an engine on a server.</source>
        <translation>&lt;h2&gt;Tunedeck&lt;/h2&gt;从模板开始、打开以往的实验，或连接到服务器上的引擎。</translation>
    </message>
    <message>
        <source>Open experiment file...</source>
        <translation>打开实验文件...</translation>
    </message>
    <message>
        <source>Open experiment folder...</source>
        <translation>打开实验文件夹...</translation>
    </message>
    <message>
        <source>Attach to a server over SSH...</source>
        <translation>通过 SSH 连接到服务器...</translation>
    </message>
    <message>
        <source>No examples found (set TUNEDECK_EXAMPLES_DIR).</source>
        <translation>未找到示例（请设置 TUNEDECK_EXAMPLES_DIR）。</translation>
    </message>
    <message>
        <source>New experiment from template...</source>
        <translation>从模板新建实验...</translation>
    </message>
    <message>
        <source>&lt;b&gt;Templates&lt;/b&gt;</source>
        <translation>&lt;b&gt;模板&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Recent experiments&lt;/b&gt;</source>
        <translation>&lt;b&gt;最近的实验&lt;/b&gt;</translation>
    </message>
    <message>
        <source>%1  (results in %2)</source>
        <translation>%1  （结果位于 %2）</translation>
    </message>
    <message>
        <source>%1  (file in %2)</source>
        <translation>%1  （文件位于 %2）</translation>
    </message>
    <message>
        <source>Nothing yet: experiments you run, edit or open appear here.</source>
        <translation>暂无内容：您运行、编辑或打开的实验会显示在这里。</translation>
    </message>
    <message>
        <source>Where should the new experiment go?</source>
        <translation>新实验要放在哪里？</translation>
    </message>
    <message>
        <source>New experiment</source>
        <translation>新建实验</translation>
    </message>
    <message>
        <source>cannot create %1</source>
        <translation>无法创建 %1</translation>
    </message>
    <message>
        <source>cannot copy %1 to %2</source>
        <translation>无法将 %1 复制到 %2</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::StopCriteriaTable</name>
    <message>
        <source>Result key</source>
        <translation>结果键</translation>
    </message>
    <message>
        <source>Stop at</source>
        <translation>停止阈值</translation>
    </message>
    <message>
        <source>A trial stops once any criterion is met: training_iteration and time_total_s at that many; a metric at the threshold in the direction of its mode, or as written with {&quot;&gt;=&quot;: x} / {&quot;&lt;=&quot;: x}.</source>
        <translation>满足任一条件时 trial 即停止：training_iteration 和 time_total_s 达到该值；指标按其 mode 的方向达到阈值，或按 {&quot;&gt;=&quot;: x} / {&quot;&lt;=&quot;: x} 的写法。</translation>
    </message>
    <message>
        <source>Add a stop criterion</source>
        <translation>添加停止条件</translation>
    </message>
    <message>
        <source>Remove the stop criterion</source>
        <translation>删除停止条件</translation>
    </message>
    <message>
        <source>Written over several lines: edit it in the YAML tab.</source>
        <translation>跨多行书写：请在 YAML 标签页中编辑。</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::StudyPlot</name>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::StudyPlots</name>
    <message>
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <source>Slice</source>
        <translation>切片</translation>
    </message>
    <message>
        <source>Contour</source>
        <translation>等高线</translation>
    </message>
    <message>
        <source>Distribution</source>
        <translation>分布</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>Optimisation history: each trial&apos;s value and the best so far</source>
        <translation>优化历史：每个试验的数值与迄今最佳</translation>
    </message>
    <message>
        <source>Empirical distribution function of the trials&apos; values</source>
        <translation>试验数值的经验分布函数</translation>
    </message>
    <message>
        <source>Pareto front</source>
        <translation>Pareto 前沿</translation>
    </message>
    <message>
        <source>The trials no other trial beats on every objective, on two objectives</source>
        <translation>在每个目标上都没有被其他 trial 超过的 trial，按两个目标显示</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::TimelineView</name>
    <message>
        <source>Each run of each trial on its node and card</source>
        <translation>每个试验在其节点和显卡上的每次运行</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>completed</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>stopped early</source>
        <translation>提前停止</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>failed, restarted</source>
        <translation>失败，已重启</translation>
    </message>
    <message>
        <source>requeued</source>
        <translation>重新排队</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>(no node)</source>
        <translation>（无节点）</translation>
    </message>
    <message>
        <source>%1 · GPU %2</source>
        <translation>%1 · GPU %2</translation>
    </message>
    <message>
        <source>seconds since the start</source>
        <translation>自开始以来的秒数</translation>
    </message>
    <message>
        <source>No experiment shown.</source>
        <translation>未显示实验。</translation>
    </message>
    <message>
        <source>No trial has run yet.</source>
        <translation>尚无试验运行。</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) of trials</source>
        <translation>
            <numerusform>%n 次试验运行</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 s to %2 s: %3</source>
        <translation>%1 秒至 %2 秒：%3</translation>
    </message>
    <message>
        <source>stopped by the user</source>
        <translation>被用户停止</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::TrialColumnChooser</name>
    <message>
        <source>Show all columns</source>
        <translation>显示所有列</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::TrialDetailView</name>
    <message>
        <source>%1 in all, %2 per rank</source>
        <translation>共 %1 个，每个 rank %2 个</translation>
    </message>
    <message>
        <source>%1 in all</source>
        <translation>共 %1 个</translation>
    </message>
    <message>
        <source>1 (GPU %1)</source>
        <translation>1 个（GPU %1）</translation>
    </message>
    <message>
        <source>%1 (GPUs %2)</source>
        <translation>%1 个（GPU %2）</translation>
    </message>
    <message>
        <source>Copy config as YAML</source>
        <translation>复制配置为 YAML</translation>
    </message>
    <message>
        <source>Copy config as JSON</source>
        <translation>复制配置为 JSON</translation>
    </message>
    <message numerus="yes">
        <source>%n trials selected. Select one trial in the table to see its config, metrics, status history and checkpoints here; the Compare tab sets the selected trials side by side.</source>
        <translation>
            <numerusform>已选择 %n 个试验。在表格中只选择一个试验，即可在此查看其配置、指标、状态历史和检查点；“比较”标签页会将所选试验并排显示。</numerusform>
        </translation>
    </message>
    <message>
        <source>No trial selected. Select a trial in the table to see its config, metrics, status history and checkpoints here.</source>
        <translation>未选择试验。在表格中选择一个试验，即可在此查看其配置、指标、状态历史和检查点。</translation>
    </message>
    <message>
        <source>Error:</source>
        <translation>错误：</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>not placed yet</source>
        <translation>尚未分配</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Iteration</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>Runtime</source>
        <translation>运行时间</translation>
    </message>
    <message>
        <source>Failures</source>
        <translation>失败次数</translation>
    </message>
    <message>
        <source>Config</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>No config yet.</source>
        <translation>尚无配置。</translation>
    </message>
    <message>
        <source>Parameter</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>No results reported yet.</source>
        <translation>尚未报告结果。</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Last</source>
        <translation>最新值</translation>
    </message>
    <message>
        <source>Best (%1)</source>
        <translation>最佳值（%1）</translation>
    </message>
    <message>
        <source>lowest</source>
        <translation>最低</translation>
    </message>
    <message>
        <source>highest</source>
        <translation>最高</translation>
    </message>
    <message>
        <source>Status history</source>
        <translation>状态历史</translation>
    </message>
    <message>
        <source>No status changes recorded.</source>
        <translation>没有记录的状态变化。</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Checkpoints</source>
        <translation>检查点</translation>
    </message>
    <message>
        <source>No checkpoints saved.</source>
        <translation>未保存检查点。</translation>
    </message>
    <message>
        <source>Path on its node</source>
        <translation>所在节点上的路径</translation>
    </message>
    <message>
        <source>rank %1 on %2</source>
        <translation>rank %1 位于 %2</translation>
    </message>
    <message>
        <source>rank %1 on %2 (GPU %3)</source>
        <translation>rank %1 位于 %2（GPU %3）</translation>
    </message>
    <message>
        <source>rank %1 on %2 (GPUs %3)</source>
        <translation>rank %1 位于 %2（GPU %3）</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Note:</source>
        <translation>备注:</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::TrialHealthView</name>
    <message>
        <source>Each chosen trial&apos;s CPU use (100% is one busy core), resident memory (RAM) and GPU memory, as its node sampled them every gpu_sample_s seconds</source>
        <translation>所选各试验的 CPU 占用（100% 为一个满载核心）、常驻内存（RAM）和 GPU 显存，由其节点每 gpu_sample_s 秒采样一次</translation>
    </message>
    <message>
        <source>%1: CPU up to %2% of a core, memory up to %3 MiB</source>
        <translation>%1：CPU 最高为单核的 %2%，内存最高 %3 MiB</translation>
    </message>
    <message>
        <source>%1: CPU not measured (one sample), memory up to %2 MiB</source>
        <translation>%1：CPU 未测量（仅一次采样），内存最多 %2 MiB</translation>
    </message>
    <message>
        <source>; and %1 more (hover for all)</source>
        <translation>；另有 %1 个（悬停查看全部）</translation>
    </message>
    <message>
        <source>, GPU memory up to %1 MiB</source>
        <translation>，GPU 显存最高 %1 MiB</translation>
    </message>
    <message>
        <source> (node %1, samples: %2)</source>
        <translation>（节点 %1，采样数：%2）</translation>
    </message>
    <message>
        <source>System health: no trial has been sampled (each node is sampled every gpu_sample_s seconds, so a shorter trial may have no sample; 0 turns sampling off).</source>
        <translation>系统状态：没有试验被采样（每个节点每 gpu_sample_s 秒采样一次，更短的试验可能没有样本；设为 0 则关闭采样）。</translation>
    </message>
    <message>
        <source>System health: no samples of the chosen trials.</source>
        <translation>系统状态：所选试验没有采样数据。</translation>
    </message>
    <message>
        <source>System health: </source>
        <translation>系统状态：</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>CPU %</source>
        <translation>CPU %</translation>
    </message>
    <message>
        <source>RAM MiB</source>
        <translation>内存 MiB</translation>
    </message>
    <message>
        <source>GPU MiB</source>
        <translation>显存 MiB</translation>
    </message>
    <message>
        <source> (%1 ranks added up, node %2, samples: %3)</source>
        <translation>（%1 个 rank 合计，节点 %2，采样：%3）</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::TrialTableModel</name>
    <message>
        <source>PENDING</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>RUNNING</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>PAUSED</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>TERMINATED</source>
        <translation>已结束</translation>
    </message>
    <message>
        <source>ERROR</source>
        <translation>出错</translation>
    </message>
    <message>
        <source>metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Trial</source>
        <translation>试验</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Iteration</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>best %1</source>
        <translation>最佳 %1</translation>
    </message>
    <message>
        <source>Runtime</source>
        <translation>运行时间</translation>
    </message>
    <message>
        <source>Best trial by %1: %2 = %3</source>
        <translation>按%1的最佳试验：%2 = %3</translation>
    </message>
    <message>
        <source>stopped by %1 at %2</source>
        <translation>由 %1 在第 %2 次迭代提前停止</translation>
    </message>
    <message>
        <source>median stopping</source>
        <translation>中位数停止</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>stopped by the user</source>
        <translation>被用户停止</translation>
    </message>
    <message>
        <source>On the Pareto front of %1 by %2: %3</source>
        <translation>按%2在 %1 的 Pareto 前沿上：%3</translation>
    </message>
    <message>
        <source>Pareto front</source>
        <translation>Pareto 前沿</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::TrialTablePane</name>
    <message>
        <source>Search trials, configs, nodes...</source>
        <translation>搜索试验、配置、节点...</translation>
    </message>
    <message>
        <source>All statuses</source>
        <translation>全部状态</translation>
    </message>
    <message>
        <source>Stopped early</source>
        <translation>提前停止</translation>
    </message>
    <message>
        <source>Stopped by the user</source>
        <translation>被用户停止</translation>
    </message>
    <message>
        <source>The table shows the trials inside every range brushed on the parallel coordinates&apos; axes. Click to show all trials again.</source>
        <translation>表格只显示位于平行坐标各轴上所有刷选范围内的试验。点击以重新显示全部试验。</translation>
    </message>
    <message>
        <source>%1 (the engine&apos;s)</source>
        <translation>%1（引擎默认）</translation>
    </message>
    <message>
        <source>What the best trial is chosen by: the bold row, the star of Parameter vs metric, Compare two experiments, Export best config and Copy best config all follow it. The engine&apos;s own choice (tunedeck-engine best) is the last result. With several objectives it scores each of them, and the Pareto front follows it.</source>
        <translation>最佳试验的选择依据：粗体行、“参数与指标”中的星标、比较两个实验、导出最佳配置和复制最佳配置都遵循它。引擎自身（tunedeck-engine best）使用最后结果。有多个目标时，它为每个目标评分，Pareto 前沿也随之变化。</translation>
    </message>
    <message>
        <source>Best trial by</source>
        <translation>最佳试验依据</translation>
    </message>
    <message>
        <source>Read-only</source>
        <translation>只读</translation>
    </message>
    <message>
        <source>Read from its folder: the attached engine does not run this experiment, so nothing new arrives and its trials cannot be stopped, paused or resumed from here.</source>
        <translation>从其文件夹读取：所连接的引擎并未运行此实验，因此不会有新结果，也无法在此停止、暂停或恢复其试验。</translation>
    </message>
    <message>
        <source>Folder on the server: %1</source>
        <translation>服务器上的文件夹：%1</translation>
    </message>
    <message>
        <source>Folder: %1</source>
        <translation>文件夹：%1</translation>
    </message>
    <message>
        <source>Code: %1</source>
        <translation>代码：%1</translation>
    </message>
    <message>
        <source>%1
The code the run used; `tunedeck-engine rerun FOLDER` re-creates it and runs the same experiment again.</source>
        <translation>%1
本次运行所用的代码；`tunedeck-engine rerun FOLDER` 可重建该代码并再次运行同一实验。</translation>
    </message>
    <message>
        <source>Brushed: %1 of %2 trials - Clear</source>
        <translation>已刷选：%2 个试验中的 %1 个 - 清除</translation>
    </message>
</context>
<context>
    <name>tunedeck::app::YamlDocumentEditor</name>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <source>Form</source>
        <translation>表单</translation>
    </message>
    <message>
        <source>YAML</source>
        <translation>YAML</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message numerus="yes">
        <source>YAML (%n error(s))</source>
        <translation>
            <numerusform>YAML（%n 个错误）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tunedeck::app::YamlTextEdit</name>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>tunedeck::client::EngineClient</name>
    <message>
        <source>the engine sent an event this app cannot read: %1</source>
        <translation>引擎发送了本应用无法读取的事件：%1</translation>
    </message>
    <message>
        <source>the engine closed the connection</source>
        <translation>引擎关闭了连接</translation>
    </message>
    <message>
        <source>the engine sent a line that is not a JSON object</source>
        <translation>引擎发送的一行不是 JSON 对象</translation>
    </message>
    <message>
        <source>the engine sent an overlong line; it was skipped</source>
        <translation>引擎发送了一行过长的数据，已跳过</translation>
    </message>
    <message>
        <source>attaching elsewhere</source>
        <translation>正在连接到别处</translation>
    </message>
</context>
<context>
    <name>tunedeck::client::SshTunnel</name>
    <message>
        <source>cannot make a private folder for the tunnel&apos;s socket: %1</source>
        <translation>无法为隧道的套接字创建私有文件夹：%1</translation>
    </message>
    <message>
        <source>cannot listen on %1: %2</source>
        <translation>无法在 %1 上监听：%2</translation>
    </message>
    <message>
        <source>Connecting to %1...</source>
        <translation>正在连接到 %1...</translation>
    </message>
    <message>
        <source>%1 presented host key %2, not the key %3 you accepted: refusing it. It was recorded in %4 on connecting; remove it from there (ssh-keygen -R &apos;%5&apos; -f &apos;%4&apos;).</source>
        <translation>%1 出示的主机密钥是 %2，而不是您接受的 %3：已拒绝该密钥。您接受的密钥已在连接时记录到 %4 中，请将其从中删除（ssh-keygen -R &apos;%5&apos; -f &apos;%4&apos;）。</translation>
    </message>
    <message>
        <source>Connected to %1; the engine is reached at %2 there</source>
        <translation>已连接到 %1；经由 %2 访问该服务器上的引擎</translation>
    </message>
    <message>
        <source>&apos;%1&apos; exited with status %2</source>
        <translation>“%1”以状态 %2 退出</translation>
    </message>
    <message>
        <source>cannot find the engine&apos;s socket on %1: asking for the SSH user&apos;s id and runtime folder failed: %2</source>
        <translation>在 %1 上找不到引擎的套接字：查询该 SSH 用户的 id 和运行时文件夹失败：%2</translation>
    </message>
    <message>
        <source>%1; trying again in %2 s</source>
        <translation>%1；%2 秒后重试</translation>
    </message>
    <message>
        <source>the engine at %1 on the server closed the connection before answering (is its socket another user&apos;s, or is it stopping?)</source>
        <translation>服务器上位于 %1 的引擎在应答前关闭了连接（它的套接字是否属于其他用户，或者它正在停止？）</translation>
    </message>
    <message>
        <source>no engine answers at %1 on the server; is tunedeck-engine serve running there?</source>
        <translation>服务器上的 %1 没有引擎应答；那里是否在运行 tunedeck-engine serve？</translation>
    </message>
    <message>
        <source> or </source>
        <translation> 或 </translation>
    </message>
    <message>
        <source> (Or sshd there does not allow forwarding to unix sockets: AllowStreamLocalForwarding no in its sshd_config.)</source>
        <translation>（或者那里的 sshd 不允许转发到 Unix 套接字：其 sshd_config 中设置了 AllowStreamLocalForwarding no。）</translation>
    </message>
</context>
</TS>
