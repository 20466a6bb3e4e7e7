"""The scenarios' words in Chinese: each prompt the lab sends and each text the scripted model
says, as a zh reader sees it beside the wire text (which stays exactly as sent)."""

from __future__ import annotations

# The wire text → its Chinese. A test runs every experiment and finds each prompt and model text
# here (and the hunt's texts), so a new scenario's words come with their Chinese.
SAID: dict[str, str] = {
    # prompts
    "Check the disk and then list the files.": "先检查磁盘，再列出文件。",
    "Clean up the workspace.": "清理工作区。",
    "Clean up: the build output and the old sources can go.": (
        "清理一下：构建产物和旧源码都可以删。"
    ),
    "Free some disk space.": "腾出一些磁盘空间。",
    "Free some space.": "腾点空间。",
    "How many lines does notes.txt have?": "notes.txt 有几行？",
    "How many words are in essay.txt?": "essay.txt 里有多少个词？",
    "Is 7 prime?": "7 是质数吗？",
    "List the files.": "列出文件。",
    "Please help with the files in the workspace.": "请帮忙处理工作区里的文件。",
    "Read all eight chapters.": "把八章都读一遍。",
    "Read the three chapters, one at a time.": "一章一章地读这三章。",
    "Reset the workspace.": "重置工作区。",
    "Retire notes.txt and confirm it is gone.": "把 notes.txt 撤掉，并确认它已经不在了。",
    "Rotate the API key in .env.": "轮换 .env 里的 API 密钥。",
    "Save my four notes.": "保存我的四条笔记。",
    "Save the meeting notes.": "保存会议记录。",
    "Show me the server log.": "给我看服务器日志。",
    "Show me what a cleanup would remove, but do not remove anything yet.": (
        "告诉我清理会删掉什么，但先什么都别删。"
    ),
    "Summarise the quarterly report in the workspace.": "总结工作区里的季度报告。",
    "Tidy the workspace.": "整理工作区。",
    "Tidy up the build output.": "整理一下构建产物。",
    "What columns does big.csv have?": "big.csv 有哪些列？",
    "What do the notes say?": "笔记里写了什么？",
    "What does the README say?": "README 里写了什么？",
    "What is in the workspace?": "工作区里有什么？",
    "Which users exist on this machine?": "这台机器上有哪些用户？",
    # the model's texts (the experiments', the hunt's pool lab/testing/pools.py, the notebooks')
    "The user wants the notes: read notes.txt before answering.": (
        "用户想知道笔记内容：先读 notes.txt 再回答。"
    ),  # D29's thinking
    "The script gives no thinking for this answer.": "脚本没有为这个回答写思考。",  # the fake's
    "Done.": "完成了。",
    "All finished.": "全做完了。",
    "ok": "好的",
    "A cleanup would remove build/ and notes.txt; say the word and I will.": (
        "清理会删掉 build/ 和 notes.txt；你一句话我就删。"
    ),
    "A dry run first.": "先空跑一遍。",
    "All clean.": "全清理好了。",
    "All eight chapters read.": "八章都读完了。",
    "All three chapters read.": "三章都读完了。",
    "Both removals were denied.": "两次删除都被拒绝了。",
    "First a look.": "先看一眼。",
    "Four notes saved.": "四条笔记已保存。",
    "Here are the users.": "用户如下。",
    "I could not count the words.": "我没能数出词数。",
    "I have what I need from the file.": "文件里我要的都拿到了。",
    "It has 3 lines.": "它有 3 行。",
    "It says hello.": "它写的是 hello。",
    "Let me count.": "我来数一数。",
    "Let me look around first.": "我先四处看看。",
    "Let me look, then clear the cache.": "我先看看，再清掉缓存。",
    "Let me look.": "我看看。",
    "Let me read the notes first.": "我先读一下笔记。",
    "Listed.": "列好了。",
    "Now a thorough clean.": "现在彻底清理。",
    "Now the report itself.": "现在读报告本身。",
    "Removing the cache was denied, so I left it in place.": "删除缓存被拒绝了，所以我没动它。",
    "Saved.": "已保存。",
    "Space freed.": "空间腾出来了。",
    "The dry run, in full.": "空跑结果，完整如下。",
    "The key is rotated.": "密钥已轮换。",
    "The log is all health checks.": "日志里全是健康检查。",
    "The notes say: keep me.": "笔记上写着：留着我。",
    "The old sources are gone.": "旧源码删掉了。",
    "The report says revenue is up 8% in Q3.": "报告说第三季度收入增长 8%。",
    "The workspace holds notes.txt and src/.": "工作区里有 notes.txt 和 src/。",
    "There is no check_disk tool; the files are listed above.": (
        "没有 check_disk 这个工具；文件已在上面列出。"
    ),
    "Tidied.": "整理好了。",
    "Workspace reset.": "工作区已重置。",
    "Yes, 7 is prime.": "是的，7 是质数。",
    "notes.txt is retired.": "notes.txt 已撤掉。",
}


# What the model says in the notebooks' runs of the course's loop (lab/course_steps.py, notebooks
# 01, 02 and 05): no experiment says them.
COURSE_SAID: dict[str, str] = {
    "Listed the workspace, and removed src.": "列出了工作区，也删掉了 src。",
    "Listed; the other two were refused.": "列好了；另外两个被拒绝了。",
}
# What a hook adds to the first message (D14's UserPromptSubmit hook, the hunt's catalog).
HOOK_SAID: dict[str, str] = {
    "Team convention: answers cite the file they come from.": "团队约定：回答要注明出自哪个文件。",
    # a Stop hook's reason to go on (D16's, the hunt's catalog)
    "Double-check your answer before stopping.": "停下之前，再核对一遍你的答案。",
    "Keep going.": "接着干。",
}
SAID |= COURSE_SAID | HOOK_SAID


def in_chinese(text: str, lang: str) -> str:
    """What follows the wire text in `lang`: its Chinese in brackets in zh (when the table has
    it), else nothing."""
    chinese = SAID.get(text.strip()) if lang == "zh" else None
    return f"（{chinese}）" if chinese else ""
