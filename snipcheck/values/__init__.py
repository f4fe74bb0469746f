"""A value, in one home: as a page documents it (``documented``), as a snippet computed it and a
tie names it (``computed``), and whether the two match (``compare``)."""
