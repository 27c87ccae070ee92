"""hipmigrate's rules, installed as the package `migrate.rules`: one rule class per module in the folders below
(build, cpp, deploy, env, hazards, python), mapping packs in mappings/ and data tables in data/."""
