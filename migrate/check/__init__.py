"""`hipmigrate check` and `hipmigrate suggest`: the CI gate on CUDA-only code and the pull-request suggestions.

One concern per module: what blocks the gate (gate), --select/--ignore (selection), inline suppressions
(suppress), baselines (baseline), lines added since a merge base (gitdiff), `[tool.hipmigrate]` (config),
per-file results (cache), the pipeline that ties them together (runner) and the suggestions (suggest).
"""
