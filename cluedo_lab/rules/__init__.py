"""The rules: editions, variants, boards, dice, Clue cards and deals, read from ``data/``."""
