"""The reading floor: a file's text to records.

Bytes to text (``source``), safe file opening (``files``), a file cut into games
(``slicer``), header tags without parsing (``headers``), the parser and its syntax errors
(``parser``, ``lexer``, ``syntax_errors``), games one at a time (``stream``), the records
themselves (``records``) and who sits at the table (``table``).  Reading judges nothing
about play: that is the referee's (``allfours_notation.referee``), one floor up.
"""
