"""The chapter's claims as experiments: experiment files and their checks, the course preset beside
the reference, and the claims the lab reads differently."""
