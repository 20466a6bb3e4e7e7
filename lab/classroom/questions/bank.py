"""The bank: every question the notebooks ask, in notebook order, with its computation (in
lab/classroom/answers.py), its reason in both languages and the misconceptions a wrong answer shows."""

from __future__ import annotations

from lab.classroom import answers as a
from lab.classroom.questions.question import Q, Question

STOP_REASON_WRONG = {
    "wrong_zh": "“stop_reason 可靠”：以为声明总和内容块一致（D1）。停止标记是声明，内容块是事实。",
    "wrong_en": '"stop_reason is reliable": that the declaration always matches the content '
    "(D1). The stop marker is a declaration; the content blocks are the fact.",
}
HOOKS_APPROVE_WRONG = {
    "wrong_zh": "“钩子能批准”：以为钩子说放行或不说话就等于批准（D15、D25）。插线口只能收紧，不能放松。",
    "wrong_en": '"Hooks can approve": that a hook\'s allow, or its silence, is an approval '
    "(D15, D25). Sockets can only tighten, never loosen.",
}
SKIP_DENIED_WRONG = {
    "wrong_zh": "“被拒的调用跳过就行”：以为拒绝了就不必回话（D23）。每个 tool_use 都欠一条 tool_result。",
    "wrong_en": '"A denied call can just be skipped" (D23): every tool_use owes a tool_result, '
    "a denial included.",
}

BANK = [
    # 00 · the overview
    Q(
        "C.1",
        a.course_gaps,
        notebook="00_overview",
        ask_zh="教学版（`Switches.course()`）与参考实现有几个开关不同？",
        ask_en="How many switches does the course preset flip away from the reference harness?",
        form="一个整数 / an integer",
        why_en="{answer} switches: each is a place where the course (as pinned) differs from the "
        "reference harness.",
        why_zh="共 {answer} 个开关：每一个都是教学版（固定提交）与参考实现不同的地方。",
        wrong_zh="“教学版只是参考实现去掉了细节”：其实它在好几处做了相反的选择，每处都有一个实验。",
        wrong_en='"The course is the reference harness minus detail": it makes the opposite '
        "choice in several places, each with an experiment.",
    ),
    # 01 · M1 the belt
    Q(
        "M1.1",
        a.disagreeing_turn,
        notebook="01_conveyor_belt_M1",
        ask_zh="往下走之前先预测：哪一轮的声明与内容块不一致？",
        ask_en="Before stepping on: which turn's declaration disagrees with its content?",
        form="轮次编号 / a turn number",
        why_en="Turn {answer} declares end_turn while its content already holds a tool_use: the "
        "declaration lags behind the fact.",
        why_zh="第 {answer} 轮声明 end_turn，内容块里却已经排好了一个 tool_use：声明滞后于事实。",
        **STOP_REASON_WRONG,
    ),
    Q(
        "M1.2",
        a.fate_of_the_late_call,
        notebook="01_conveyor_belt_M1",
        wrong=[
            (
                "ran",
                "“内容里的调用总会先做完”：信声明的循环只看 stop_reason，它根本没看见这件活，谈不上执行。",
                '"The calls in the content are always done first": the trusting loop reads only stop_reason; it never sees this call, so nothing runs it.',
            ),
            (
                "stopped",
                "“总有一道检查会拦下它”：这件活根本没进检查链——循环在声明上收工，没有谁看见它，也就谈不上拦。",
                '"Some check stops it": the call never reaches the chain of checks; the loop stops on the declaration and nobody sees the call.',
            ),
        ],
        ask_zh="信声明的循环里，`toolu_002`（`cat report.md`）会怎样？",
        ask_en="In the trusting loop, what becomes of `toolu_002`?",
        form="执行了、被拦下、被丢弃 / ran / stopped / dropped",
        why_en="{answer}: the trusting loop stops on the declaration and never looks at the call; "
        "the report is never read, and the run still ends 'done'.",
        why_zh="{answer}：信声明的循环在声明上收工，根本没看这件活；报告没读，运行却照样以 done 结束。",
        **STOP_REASON_WRONG,
    ),
    Q(
        "M1.3",
        a.empty_turn_cost,
        notebook="01_conveyor_belt_M1",
        ask_zh="信声明的循环一共调用模型几次，最后一次得到什么 HTTP 状态码？",
        ask_en="How many model calls does the trusting loop make, and what HTTP status ends it?",
        form="两个整数 / two integers, e.g. (5, 200)",
        why_en="{answer}: believing tool_use, it sends an empty result message and asks again; the "
        "API refuses a history with an empty message.",
        why_zh="调用次数和状态码是 {answer}：信了 tool_use，就发回一条空的结果消息再问一次；API 拒绝带空消息的历史。",
        wrong_zh="“信声明只会丢活，反方向无害”：声明说 tool_use 而内容里没有调用时，信它就发出一条空消息。",
        wrong_en='"Trusting the declaration only loses work; the other direction is harmless": '
        "believing a tool_use that is not there sends an empty message.",
    ),
    # 02 · M2 the number book and the trays
    Q(
        "M2.1",
        a.when_the_contract_fails,
        notebook="02_dispatch_table_M2",
        wrong=[
            (
                "at the first call",
                "“契约写错要到调用时才暴露”：注册表登记时就把 schema 属性名和形参对照，模型还没调用就拒绝登记。",
                '"A broken contract shows only when called": the registry compares the schema\'s names with the parameters at registration, before any call.',
            ),
        ],
        ask_zh="契约受检查时，这个坏工具在什么时候失败？",
        ask_en="With the contract checked, when does this tool fail?",
        form="注册时、第一次调用时 / at registration / at the first call",
        why_en="{answer}: the registry compares the schema's property names with the handler's "
        "parameters and refuses the tool before the model can call it.",
        why_zh="{answer}：注册表把 schema 属性名与处理函数形参逐一对照，模型还没调用就拒绝登记。",
        wrong_zh="“只改两处”：以为一条 schema 加一行处理函数就够了（D8）；第三处是签名对齐。",
        wrong_en='"Two places": that a schema entry and a handler entry are all (D8); the third '
        "is that their names agree.",
    ),
    Q(
        "M2.3",
        a.cat_finds_the_deleted_file,
        notebook="02_dispatch_table_M2",
        wrong=[
            (
                False,
                "“同一个回答里的调用一件接一件执行”：同一并行托盘里的调用都从托盘开始时的磁盘出发，cat 看不到 rm 的结果。",
                '"Calls in one answer run one after another": calls in one parallel tray all start from the disk as the tray found it; cat does not see rm\'s effect.',
            ),
        ],
        ask_zh="按工具判定时，`cat notes.txt` 还能读到 `rm` 刚删掉的那个文件的内容吗？",
        ask_en="With concurrency decided per tool, does `cat notes.txt` still print the file "
        "that `rm` has just deleted?",
        form="是、否 / True / False",
        why_en="{answer}: rm and cat share a parallel tray, so cat reads the disk as it was when the "
        "tray started — a file its predecessor in the same answer deletes.",
        why_zh="{answer}：rm 和 cat 同在一个并行托盘，cat 读到的是托盘开始时的磁盘——同一回答里前一件活"
        "要删掉的文件。",
        wrong_zh="“能否并行是工具的属性”（D18、D27）：同一个 shell 工具，列目录可并行、删除不可并行——"
        "看的是这次调用的实参。",
        wrong_en='"Parallel safety belongs to the tool" (D18, D27): the same shell tool may list '
        "in parallel but not delete; it is decided by this call's input.",
    ),
    Q(
        "M2.2",
        a.makespans,
        notebook="02_dispatch_table_M2",
        ask_zh="八次各耗 1 虚拟秒的独立读取：有并行托盘、没有并行托盘，各要几秒？",
        ask_en="Eight independent one-second reads: how long with parallel trays, and without?",
        form="两个数 / two numbers",
        why_en="{answer} virtual seconds: eight independent reads share one parallel tray; one "
        "after another they take eight.",
        why_zh="并行、逐个分别是 {answer} 虚拟秒：八次互不相干的读取同在一个并行托盘里；逐个执行要八秒。",
        wrong_zh="“托盘只是记账方式，不影响耗时”：互不相干的调用同盘并行，耗时是最慢的那一件，不是总和。",
        wrong_en='"Trays are bookkeeping, not time": independent calls in one tray take as long '
        "as the slowest, not the sum.",
    ),
    # 03 · M3 the scanners
    Q(
        "M3.1",
        a.where_malformed_calls_stop,
        notebook="03_chain_of_checks_M3",
        wrong=[
            (
                "tool_check",
                "“工具自己会检查输入”：外形不合法的调用在更便宜的结构校验就被挡下，到不了工具自校验。",
                '"The tool checks its own input": a malformed call stops at the cheaper validation stage and never reaches the tool\'s own check.',
            ),
        ],
        ask_zh="参考实现里，两个格式错误的调用在哪一道扫码口被挡下？",
        ask_en="Where are the two malformed calls stopped?",
        form="一个阶段名：号码簿查名、结构校验、工具自校验、前置钩子、权限判定 / a stage name",
        why_en="At {answer}: the cheapest check; the later stages never see them.",
        why_zh="在{answer}：最便宜的一道检查；后面的扫码口根本见不到它们。",
        wrong_zh="“先问人最保险”：外形不合法的调用在结构校验就该挡下，轮不到门禁和人。",
        wrong_en='"Asking the human first is safest": a malformed call stops at validation, '
        "before any gate or human.",
    ),
    Q(
        "M3.2",
        a.questions_about_junk,
        notebook="03_chain_of_checks_M3",
        wrong=[
            (
                (0, 0),
                "“人只会被问到合法的调用”：许可排在前面时，人先为那些一同意就会在结构校验失败的调用回答问题。",
                '"The human is only asked about valid calls": with the gate first, the human answers for calls that fail validation right after the yes.',
            ),
        ],
        ask_zh="关于那些本来就格式错误的调用，人分别要回答几个问题：校验在前时，许可在前时？",
        ask_en="How many questions about malformed calls does the human answer, validation first "
        "and gate first?",
        form="两个整数 / two integers",
        why_en="{answer}: with the gate first the human answers questions about calls that fail "
        "validation right after the yes.",
        why_zh="校验在前、许可在前分别是 {answer}：许可排在前面，人就要为那些「同意」之后立刻在结构校验上失败的调用回答问题。",
        wrong_zh="“反正每道检查都会做，顺序无所谓”：顺序决定谁的时间被浪费——人的时间放在最后。",
        wrong_en='"Every check runs anyway, so the order does not matter": the order decides '
        "whose time is wasted; the human's comes last.",
    ),
    Q(
        "M3.3",
        a.spill_loop,
        notebook="03_chain_of_checks_M3",
        ask_zh="读文件工具不豁免时，读一个大文件会产生几个溢写文件、浪费几轮去追读它们？",
        ask_en="With the read tool not exempt, how many spill files, and how many turns spent "
        "chasing them?",
        form="两个整数 / two integers",
        why_en="{answer} (spill files, turns spent chasing them): the cap turns the read tool into "
        "a loop that feeds on itself.",
        why_zh="溢写文件数、追读它们的轮数是 {answer}：上限落到读文件上，恰好变成自噬的递归发生器。",
        wrong_zh="“保护性的上限对每个工具都安全”：机制之间会互相踩，上限落到读文件上就成了递归。",
        wrong_en='"A protective cap is safe on every tool": mechanisms can step on each other; '
        "on the read tool the cap feeds itself.",
    ),
    # 04 · M4 the gates
    Q(
        "M4.1",
        a.gate_that_stops_rm,
        notebook="04_gates_M4",
        wrong=[
            (
                "allow",
                "“没写进规则的才会放行”：`rm -rf /` 正写在硬拒绝表上，而这道门排在最前面。",
                '"It is let through": `rm -rf /` is on the hard deny list, and that gate comes first.',
            ),
            (
                "tool_check",
                "“危险由工具自己检查”：`rm -rf /` 的外形完全合法，挡下它的是拒绝表这道门。",
                '"The tool checks for danger": `rm -rf /` is well formed; the deny gate stops it.',
            ),
            (
                "validation",
                "“危险的调用外形就不合法”：`rm -rf /` 的外形完全合法，挡下它的是拒绝表这道门。",
                '"A dangerous call is malformed": `rm -rf /` is well formed; the deny gate stops it.',
            ),
        ],
        ask_zh="参考实现里，哪一道门拦下 `rm -rf /`？",
        ask_en="Which gate stops it?",
        form="硬拒绝、需询问、放行 / deny / ask / allow",
        why_en="The {answer} gate: the hard deny list comes first; the human is never asked.",
        why_zh="{answer}这道门：硬拒绝排在最前面，根本不问人。",
        wrong_zh="“危险的事总要问一下人”：硬拒绝不可协商，排在可以对讲的那道前面，根本不问。",
        wrong_en='"Dangerous calls are always put to the human": the hard deny is not '
        "negotiable and comes before the question.",
    ),
    Q(
        "M4.2",
        a.deny_listed_ran_inverted,
        synonyms=((True, "执行", "执行了", "跑了", "ran"), (False, "没执行", "没跑", "没有执行")),
        notebook="04_gates_M4",
        ask_zh="门禁顺序倒置（人工审批先于硬拒绝表）、人答了「y」：拒绝表上的 `rm -rf /` 执行了吗？",
        ask_en="With the human asked before the deny list, and an unattended 'y': does the "
        "deny-listed `rm -rf /` run?",
        form="是、否 / True / False",
        why_en="{answer}: one unattended 'y' in front of the deny list voids it — the negotiable "
        "yes came before the non-negotiable no.",
        why_zh="{answer}：把一句无人值守的「y」排在拒绝表前面，整张拒绝表就被架空了——可协商的同意排到了"
        "不可协商的拒绝前面。",
        wrong_zh="“门禁都在就行，顺序无所谓”：一句「同意」排在前面，就能把整张拒绝表架空（D4）。",
        wrong_en='"As long as every gate is there, the order does not matter": a yes in front '
        "voids the whole deny list (D4).",
    ),
    Q(
        "M4.3",
        a.where_the_wall_stands,
        notebook="04_gates_M4",
        wrong=[
            (
                "validation",
                "“越界的路径外形就不合法”：路径的外形完全合法；是工具自己检查后发现它出了工作区。",
                '"A path outside the workspace is malformed": it is well formed; the tool\'s own check finds it leaves the workspace.',
            ),
        ],
        ask_zh="有墙时，这次读取在哪一道扫码口被挡下？",
        ask_en="With the wall, at which stage?",
        form="一个阶段名：号码簿查名、结构校验、工具自校验、前置钩子、权限判定 / a stage name",
        why_en="At {answer}, the tool's own check, before any gate: no gate decides, no human is "
        "asked. Without the wall only a question stands in the way.",
        why_zh="在{answer}，在任何门禁之前：没有门禁裁决，也不问人。拆了墙，只剩一句问话。",
        wrong_zh="“越界是门禁的事”：墙是工具自己的检查，越界直接报错；门禁只会问一句（D10）。",
        wrong_en="\"Leaving the workspace is the gates' business\": the wall is the tool's own "
        "check, an error with no question; the gates only ask (D10).",
    ),
    # 05 · M5 the sockets
    Q(
        "M5.1",
        a.audited_calls_course,
        notebook="05_sockets_M5",
        ask_zh="教学版钩子语义下，审计钩子见到了哪些调用？",
        ask_en="Under the course's hook semantics, which calls does the audit log see?",
        form='调用编号的列表 / a list of call ids such as ["toolu_001"]',
        why_en="{answer}: the permission hook answers first for the two denied calls and the audit "
        "hook is skipped — exactly the calls an audit exists for.",
        why_zh="只有调用 {answer}：两次被拒的调用由权限钩子先回答、就地短路，审计钩子被跳过——恰恰是审计最该记下的那几次。",
        wrong_zh="“审计钩子见到每一个调用”：第一个非空返回就地短路，被挡下的那一次在日志里消失（D12）。",
        wrong_en='"An audit hook sees every call": the first non-None answer short-circuits, and '
        "the blocked call vanishes from the log (D12).",
    ),
    Q(
        "M5.2",
        a.who_decides_hook_allow,
        notebook="05_sockets_M5",
        wrong=[
            (
                "ask",
                "“钩子放行后还要问一下人”：拒绝规则排在最前面，根本轮不到问人。",
                '"After a hook\'s allow the human is asked": the deny rule comes first, and no one is asked.',
            ),
        ],
        ask_zh="钩子对 `rm -rf src` 说 allow，拒绝规则覆盖 `rm`：参考实现里哪一道门说了算？",
        ask_en="Who decides?",
        form="硬拒绝、需询问、放行、钩子 / deny / ask / allow / hook",
        why_en="The {answer} rule: a hook's allow only goes on to the gates, and deny comes first.",
        why_zh="{answer}规则：钩子的放行只是送进门禁，拒绝排在最前面。",
        **HOOKS_APPROVE_WRONG,
    ),
    Q(
        "M5.3",
        a.stop_hook_turns,
        notebook="05_sockets_M5",
        ask_zh="有防护和没有防护时，各调用模型几次？（轮数上限是 12）",
        ask_en="How many model calls with and without the guard? The turn limit is 12.",
        form="两个整数 / two integers",
        why_en="{answer} model calls: with the guard the second Stop sees stop_hook_active and lets "
        "go; without it the loop only ends at the turn limit.",
        why_zh="有防护、没有防护分别是 {answer} 次模型调用：有防护时第二次退出事件看到 stop_hook_active 就放手；没有防护，只能撞到轮数上限才停。",
        wrong_zh="“退出钩子不会让循环停不下来”：退出是可以被否决的，反复否决要靠防护标志位来止住。",
        wrong_en='"A Stop hook cannot keep the loop going": the stop can be vetoed, and only a '
        "guard flag stops a hook that keeps vetoing.",
    ),
    # 06 · the pairing obligation
    Q(
        "P.2",
        a.denied_result_is_error,
        notebook="06_pairing_D3",
        wrong=[
            (
                False,
                "“被拒是正常结果，不算错误”：被拒的结果要标 is_error，模型才知道这件活没做成。",
                '"A denial is a normal result, not an error": it is marked is_error so the model knows the work was not done.',
            ),
        ],
        ask_zh="参考实现给被拒的调用发回的结果标了 `is_error` 吗？",
        ask_en="Does the reference harness mark the result it sends for a denied call `is_error`?",
        form="是、否 / True / False",
        why_en="{answer}: the denied call gets a result marked is_error, naming the stage that "
        "stopped it — 被拒也要补一条结果.",
        why_zh="{answer}：被拒的调用补一条标了 is_error 的结果，写明在哪道扫码口被挡下——被拒也要补一条结果。",
        **SKIP_DENIED_WRONG,
    ),
    Q(
        "P.1",
        a.call_named_in_the_400,
        notebook="06_pairing_D3",
        ask_zh="关掉配对保护后，API 拒绝请求时点名的是哪个调用？",
        ask_en="With pair protection off, which call does the API's 400 name?",
        form="一个调用编号 / a call id",
        why_en="{answer}, the denied rm: the API names the call left without a result and refuses "
        "the whole request.",
        why_zh="调用 {answer}，被拒的 rm：API 点名那个没有结果的调用，并拒绝整个请求。",
        **SKIP_DENIED_WRONG,
    ),
    Q(
        "P.3",
        a.orphaned_result,
        notebook="06_pairing_D3",
        ask_zh="没有保护时，第 4 轮发出的历史里，哪个调用的结果留下了、它的 tool_use 却被裁掉？",
        ask_en="Unprotected, whose result is kept in turn 4 while its tool_use was trimmed?",
        form="一个调用编号 / a call id",
        why_en="{answer}: its tool_result was kept while the trim cut away the assistant message "
        "holding its tool_use — a result that answers nothing.",
        why_zh="调用 {answer}：它的 tool_result 留下了，持有 tool_use 的那条助手消息却被裁掉——一条不回答任何调用的结果。",
        wrong_zh="“历史可以按条裁剪”：tool_use 和它的 tool_result 必须成对留下，否则历史不再合法（D3）。",
        wrong_en='"History can be trimmed message by message": a tool_use and its tool_result '
        "stay or go together, or the history is no longer valid (D3).",
    ),
    # 07 · the hunt
    Q(
        "H.1",
        a.reference_keeps_it,
        notebook="07_hypothesis_hunt",
        ask_zh="这个用例放到参考实现上，还会守住同一条不变式吗？换句话说，故障在开关里（是）还是在用例里"
        "（否）？",
        ask_en="On the reference harness, does the same case keep the promise?",
        form="是、否 / True / False",
        why_en="{answer}: on the reference harness the same case keeps the promise — the fault is "
        "in the switch, not in the case.",
        why_zh="{answer}：同一个用例在参考实现上守住了承诺——故障在开关里，不在用例里。",
        wrong_zh="“生成的用例本身有毛病”：同一个用例在参考实现上守住承诺，故障在被拨动的开关里。",
        wrong_en='"A generated case is itself at fault": the same case keeps the promise on the '
        "reference harness; the fault is the flipped switch.",
    ),
    Q(
        "H.2",
        a.continuation_catches_d1,
        notebook="07_hypothesis_hunt",
        wrong=[
            (
                False,
                "“continuation 只管循环停没停”：它正是 M1 的承诺——内容里有调用就必须再调用模型，丢了调用它就报 ✗。",
                '"continuation only checks that the loop stops": it is M1\'s promise; a dropped call breaks it.',
            ),
        ],
        ask_zh="D1 的开关 `trust_stop_reason` 会被 `continuation`（M1 的承诺）抓住吗？",
        ask_en="Does `continuation`, M1's promise, catch D1's switch `trust_stop_reason`?",
        form="是、否 / True / False",
        why_en="{answer}: continuation is M1's promise — the model is called again exactly when the "
        "content held a tool call.",
        why_zh="{answer}：continuation 就是 M1 的承诺——恰好在内容块里有工具调用时才再次调用模型。",
        **STOP_REASON_WRONG,
    ),
    Q(
        "H.3",
        a.reference_breaks,
        notebook="07_hypothesis_hunt",
        ask_zh="参考实现那一行有几个 ✗？",
        ask_en="How many ✗ on the reference harness's row?",
        form="一个整数 / an integer",
        why_en="{answer}: the reference harness keeps every promise; every ✗ in the matrix is the "
        "work of one flipped switch.",
        why_zh="共 {answer} 个：参考实现守住每一条承诺；矩阵里每一个 ✗ 都是某一个被拨动的开关造成的。",
        wrong_zh="“参考实现也会打破一些承诺”：它一条都不破；✗ 只来自被拨动的开关。",
        wrong_en='"The reference harness breaks some promises too": it breaks none; each ✗ '
        "comes from a flipped switch.",
    ),
    # 08 · real harnesses on the bench
    Q(
        "R.1",
        a.runner_requests,
        notebook="08_real_harnesses",
        ask_zh="tool runner 在 P1s 上一共发了几个请求？",
        ask_en="How many requests did the tool runner send on P1s?",
        form="一个整数 / a number",
        why_en="{answer}: the answer held a tool_use, the declaration said end_turn, and the runner "
        "believed the declaration — no second request, no tool_result, the canary never came "
        "back.",
        why_zh="共 {answer} 个：回答里有 tool_use，声明却是 end_turn，runner 信了声明——没有第二个请求，没有 "
        "tool_result，金丝雀再也没回来。",
        **STOP_REASON_WRONG,
    ),
    Q(
        "R.2",
        a.switch_that_drops_the_call,
        notebook="08_real_harnesses",
        ask_zh="实验室的哪一个开关让它自己的 harness 做出同样的事？",
        ask_en="Which switch of the lab makes its own harness do the same?",
        form="一个开关名 / a switch name",
        why_en="{answer}, the one switch of M1: the lab's harness then drops the same call, as on "
        "the wire.",
        why_zh="开关 {answer}，M1 唯一的一个：打开它，实验室的 harness 也丢掉同一个调用，和线上一模一样。",
        **STOP_REASON_WRONG,
    ),
    Q(
        "R.3",
        a.runner_exit_status,
        notebook="08_real_harnesses",
        ask_zh="丢掉那个调用之后，tool runner 的程序以什么退出码结束？",
        ask_en="With what exit status did the tool runner's program end, once the call was dropped?",
        form="一个整数 / a number",
        why_en="{answer}: the program ended as if the work were done — nothing told its user that "
        "a call was lost.",
        why_zh="退出码 {answer}：程序像活干完了一样结束——没有任何东西告诉用户丢了一个调用。",
        wrong_zh="“丢了活，程序总会报错”：信声明的循环照常收工，退出码说一切正常。",
        wrong_en='"A lost call makes the program fail": the trusting loop ends normally, and '
        "the exit status says all is well.",
    ),
    # 09 · the seed's acceptance questions
    Q(
        "A.1",
        a.calls_dropped_by_trusting,
        notebook="09_course_beside_production",
        ask_zh="在本章的 D1 里，信停止标记的循环丢了几件活？",
        ask_en="In the chapter's D1, how many calls does the loop that trusts the stop marker lose?",
        form="一个整数 / an integer",
        why_en="{answer} call lost: the declaration lagged behind the content, and the loop that "
        "believed it stopped early.",
        why_zh="丢了 {answer} 件活：声明滞后于内容，信声明的循环提前收工。",
        **STOP_REASON_WRONG,
    ),
    Q(
        "A.2",
        a.places_to_add_a_tool,
        notebook="09_course_beside_production",
        ask_zh="加一个能用的工具，一共有几处必须写对？",
        ask_en="For a new tool to work, how many places must be right?",
        form="一个整数 / an integer",
        why_en="{answer}: a schema entry, a handler entry, and the implicit contract that the "
        "schema's names equal the handler's parameters (the registry checks it).",
        why_zh="共 {answer} 处：schema 一条、处理函数一行，外加隐含的签名契约（注册表替你检查）。",
        wrong_zh="“只改两处”：课程正文说两处（D8）；按关键字展开的调用还要求 schema 属性名与形参名逐字一致。",
        wrong_en='"Two places", as the course\'s text says (D8): the keyword call also needs the '
        "schema's names to equal the handler's parameters.",
    ),
    Q(
        "A.3",
        a.course_reads_etc,
        notebook="09_course_beside_production",
        wrong=[
            (
                "nothing",
                "“教学版越界什么都挡不住”：墙是拆了，但门禁还会问一句——挡在前面的是一句问人。",
                '"Nothing stops it under the course": the wall is gone, but the gates still ask; a question stands in front.',
            ),
        ],
        ask_zh="教学版（`Switches.course()`）下读 `/etc/passwd`，挡在前面的是什么：墙，还是一句问人？",
        ask_en="Under the course preset, what stands in front of a read of `/etc/passwd`: the "
        "wall, or a question?",
        form="墙、问一句、什么都没有 / wall / question / nothing",
        why_en="A {answer}: s03 dropped safe_path, so leaving the workspace became a question to the "
        "user — the wall turned into an intercom. Judge a mechanism by its net effect.",
        why_zh="{answer}：s03 撤掉了 safe_path，越界从直接报错变成「问一下用户」——硬墙变成了对讲机。"
        "评价新机制要看净效应。",
        wrong_zh="“加机制只会多一层保护”：门禁加上了，墙却拆了——要数加了什么，也要数拆了什么（D10）。",
        wrong_en='"Adding a mechanism only adds protection": the gates came in and the wall went '
        "out; count what was removed too (D10).",
    ),
    Q(
        "A.4",
        a.hook_allow_against_deny,
        notebook="09_course_beside_production",
        ask_zh="钩子对 `rm -rf src` 说 allow、拒绝规则覆盖 `rm`：参考实现里丢了几个文件？",
        ask_en="A hook says allow, a deny rule covers `rm`: how many files does the reference "
        "harness lose?",
        form="一个整数 / an integer",
        why_en="{answer} files lost: the hook said allow, the deny rule still decided. Sockets can "
        "only tighten.",
        why_zh="丢了 {answer} 个文件：钩子说放行，拒绝规则照样拦下。插线口只能收紧，不能放松。",
        **HOOKS_APPROVE_WRONG,
    ),
]

QUESTIONS: dict[str, Question] = {q.id: q for q in BANK}
