"""Stage 3, regions and results -> outcomes: each region checked once against what the snippets
computed (``regions``), the rows and problems it gives (``records``), each row's anchor
(``anchors``)."""
