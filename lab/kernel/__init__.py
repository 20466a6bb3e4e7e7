"""The kernel every run uses: the switchboard, a scenario and its run (in process, live, or any
harness through one entry), the trace, the one record of a run, the observables and promises
read from it, and the leaves they share (the tool type, input errors, a file the user wrote,
jsonschema loaded late)."""
