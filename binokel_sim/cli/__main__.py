from binokel_sim.cli import main

main()
