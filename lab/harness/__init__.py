"""The reference harness: the loop (M1) and the layers hung outside it (M2-M5)."""
