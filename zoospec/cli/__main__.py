"""`python -m zoospec.cli …` runs the command."""
import sys

from .main import main

sys.exit(main())
