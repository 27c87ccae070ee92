"""The report of `hipmigrate report DST`: what `run`, `build` and `bench` left in DST/.hipmigrate/, read back
into one `Report` (model.py, load.py), and the forms every renderer shares (document.py: the JSON document of
docs/report.md; sarif_log.py: the findings for code scanning)."""
