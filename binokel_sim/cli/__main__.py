import sys

from binokel_sim.cli import app

sys.exit(app())
