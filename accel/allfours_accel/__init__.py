"""The optional compiled search of allfours-notation's double-dummy solver.

Nothing here knows a rule of All Fours: ``allfours_notation.checking.analysis.accelerated``
hands the engine the referee's answers (legal cards, trick winners, Game's value) as
callbacks and the items' values as numbers.  See that module.
"""
