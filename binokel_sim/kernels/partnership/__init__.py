"""The partnership family (four-hand-80): trick play, its heuristic, the sampling policy, deals,
bid-odds samples and games, the partner-meld histogram. Imports only the shared kernel modules."""
