args: links --catalog catalogs/deep_nesting.json
exit: 2
