"""Events (``tracker event``): an event exists as the name its games share. Finding the one a
user means (:mod:`.lookup`), declaring it before it is played (:mod:`.declare`), giving FIDE's
inputs for it and merging two spellings of it (:mod:`.edit`), and what it shows (:mod:`.report`:
its standings, crosstable and rated figures). Each loads on its own."""
