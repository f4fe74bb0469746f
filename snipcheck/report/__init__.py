"""Stage 4, outcomes -> what a reader gets: each page rendered (``page``), the verification page
(``verification``), one notebook per page (``notebook``), the whole site staged for a builder
(``stage``) or written as a tree (``tree``), the URLs between them (``urls``), and the computed
values written back into the pages (``accept``)."""
