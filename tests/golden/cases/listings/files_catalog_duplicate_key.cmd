args: links --catalog catalogs/duplicate_key.json
exit: 2
