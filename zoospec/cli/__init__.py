"""The `zoospec` command: one module per group of subcommands; `main.py` builds the parser.
The top layer: it imports the core and the solvers, and nothing imports it."""
