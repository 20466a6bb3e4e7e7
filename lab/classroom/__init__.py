"""The classroom: predict-then-run questions and their answers, a student's answer read as meant,
the answer key, and the exercises with their hidden checks."""
