"""`hipmigrate check` and `hipmigrate suggest`: the CI gate on CUDA-only code and the pull-request suggestions.

One concern per module: what blocks the gate (gate), --select/--ignore (selection), baselines (baseline), lines
added since a merge base (gitdiff), per-file results (cache), the pipeline that ties them together (runner), what
it found (result), its output (report) and the suggestions (suggest). `[tool.hipmigrate]` is read by
migrate/config.py, which `build` reads too. Inline suppressions are the engine's (migrate/suppress.py), so every
command honours them.
"""
