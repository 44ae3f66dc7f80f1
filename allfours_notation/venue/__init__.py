"""The venue: ``allfours serve``, the tables of a club night scored on phones.

A floor of its own above the recording core and the event layer: a web server
(aiohttp, imported only here) in front of one recording session per table.  Every
line a phone sends is judged by the session ``allfours record`` uses
(:meth:`Session.type`); the server holds no rule of All Fours and the page's
JavaScript none either.  See docs/serve.md.
"""
