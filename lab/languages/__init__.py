"""The lab's two languages: which one it speaks, and text that carries both."""
