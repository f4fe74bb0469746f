"""Stage 1, page -> regions: reading a Markdown page into its run blocks, output blocks, ties and
figures (``page.parse``), each a plain record (``regions``)."""
