"""What a run of a family's one block driver does (``talon_blocks``, ``widow_blocks``): the
``mode`` argument, the same in every family."""

MODE_PLAY, MODE_PLAYOUT, MODE_SAMPLE, MODE_DUEL, MODE_MATCH = range(5)
