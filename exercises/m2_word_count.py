"""M2 转接号码簿 · Add a word_count tool to the number book.

往号码簿里加一个工具。「只改两处」其实是三处：schema 一条、处理函数一行，外加一处隐含的契约——
它在哪里，注册表会告诉你。

要求：模型会这样调用它：word_count {"path": "essay.txt"}，期待得到文件里的词数。
make_tool(world) 返回这个 Tool；读文件用 world.fs.read(world.resolve(path))。
检查：lab check m2_word_count

The model will call it as  word_count {"path": "essay.txt"}  and expects the number of words.
make_tool(world) returns the Tool; read a file with world.fs.read(world.resolve(path)).
Check with: lab check m2_word_count
"""

from lab.harness.tools import Tool


def make_tool(world):
    def word_count(file_path: str) -> str:
        return str(len(world.fs.read(world.resolve(file_path)).split()))

    schema = {
        "type": "object",
        "properties": {"path": {"type": "string"}},
    }
    return Tool("word_count", "Count the words in a file.", schema, word_count)
