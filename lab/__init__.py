"""harness-lab: a fault-injection teaching lab for AI-agent harnesses."""

__version__ = "0.1.0"
