"""The writing floor: records and checked games written out.

Canonical AFN text (``formatter``), JSON records (``export``, ``schema``), score sheets
(``sheet``), highlighting (``highlight``, the Pygments lexer) and the HTML replay
(``html_replay``).  It reads the floors below (reading, referee, checking) and is read only
by the apps.
"""
