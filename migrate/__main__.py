from migrate.cli import main

main()
