"""The AFN language server (``allfours lsp``): the referee, live, in the editor.

:mod:`.document` cuts an editor buffer into games and keeps each game's parse
and rules check keyed by its text, so that a keystroke re-reads one game;
:mod:`.features` answers hover, completion, symbols, folding, formatting and
code actions from that analysis; :mod:`.server` wires both to pygls over stdio.

Only ``allfours lsp`` imports this package (and so pygls): the rest of the
toolkit never pays for it.
"""
