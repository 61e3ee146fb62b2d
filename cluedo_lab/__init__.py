"""cluedo-lab: an exact teaching kit for Cluedo and Clue."""
