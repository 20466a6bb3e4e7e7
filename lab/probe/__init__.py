"""`lab probe`: harnesses nobody here wrote, run against the fake API and judged from the wire."""
