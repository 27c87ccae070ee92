"""Click commands kept out of migrate/cli.py, each module registering itself there with one line."""
