"""The referee: the rules of All Fours, and the table that applies them to a game."""
