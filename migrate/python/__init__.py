"""Python sources: libcst parsing with byte positions and qualified names, for the PY rules and BLD201."""
