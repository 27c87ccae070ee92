"""The report model (model.py), built once from the stages' results (assemble.py), kept in DST/.hipmigrate/ as its
own serialised form (state.py) and read back by `hipmigrate report` (load.py). Renderers (migrate/render, picked
through migrate/formats) only read it."""
