args: links --catalog catalogs/missing_field.json
exit: 2
